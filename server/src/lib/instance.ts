import os from 'node:os';

/**
 * This process among the app's processes on one database: written beside the work it
 * claims (an import's run, a communication delivery), so an operator sees which process has it and
 * a test can stop that very process.
 */
export const INSTANCE_NAME = `${os.hostname()}:${process.pid}`;
