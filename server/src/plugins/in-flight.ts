import fp from 'fastify-plugin';
import type { AppContext } from '../context.ts';

/** While stopping, how often connections that have fallen idle are closed. */
const CLOSE_IDLE_EVERY_MS = 100;

/**
 * The requests in flight: counted (lib/requests-in-flight.ts), and, once the process is stopping
 * (docs/decisions.md "Stopping and the load balancer"), each answered with `Connection: close`
 * and its connection closed as soon as it is idle. A keep-alive connection that carried a request
 * in flight at SIGTERM otherwise stays open after its answer, and the server's close waited for
 * the client to leave or for the keep-alive timeout: the process exited only at
 * SHUTDOWN_TIMEOUT_SECONDS.
 */
export const inFlightPlugin = fp<{ ctx: AppContext }>(
  async (app, { ctx }) => {
    const { requests } = ctx;
    app.decorate('requestsInFlight', requests);
    const inFlight = new WeakMap<object, object>();
    app.addHook('onRequest', async (request) => {
      inFlight.set(request, requests.begin());
    });
    // Answered, or given up by the client. (Not a 'close' listener on each response: a streamed
    // download already has ten, and an eleventh made Node warn of a leak.) A request whose end is
    // never told is forgotten after a minute (RequestsInFlight).
    const ended = async (request: object) => {
      const token = inFlight.get(request);
      if (token) requests.end(token);
    };
    app.addHook('onResponse', ended);
    app.addHook('onRequestAbort', ended);
    app.addHook('onSend', async (request, reply) => {
      if (app.health.draining && request.raw.httpVersionMajor === 1) reply.header('connection', 'close');
    });
    let sweeper: NodeJS.Timeout | undefined;
    app.addHook('preClose', async () => {
      // Answers whose headers left before the process began stopping keep their connection
      // alive: closed here once idle.
      sweeper = setInterval(() => app.server.closeIdleConnections(), CLOSE_IDLE_EVERY_MS);
      sweeper.unref();
    });
    app.addHook('onClose', async () => clearInterval(sweeper));
  },
  { name: 'in-flight' },
);
