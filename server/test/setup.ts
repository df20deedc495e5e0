// The translations into the shared catalogue, as the server has them at its start (app.ts).
import '@mss/contracts/locales';
