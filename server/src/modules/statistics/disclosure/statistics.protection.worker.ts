import { parentPort } from 'node:worker_threads';
import { protect, type ProtectionProblem } from './statistics.protection.ts';

/*
 * The protection LPs in a thread of their own (statistics.pattern.ts): deciding a large market's
 * pattern keeps a core busy for up to a second or two, which must not hold up other requests.
 * Loaded by Node itself (type stripping): nothing here but erasable TypeScript.
 */
parentPort!.on('message', async ({ id, problem }: { id: number; problem: ProtectionProblem }) => {
  try {
    parentPort!.postMessage({ id, result: await protect(problem) });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
