// Fails early, with a clear message, on a Node.js older than the project needs.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`Node.js ${process.versions.node} is too old: this project needs Node.js 22.12 or newer (24 LTS recommended).`);
  process.exit(1);
}
