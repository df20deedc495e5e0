import type { SheetSink } from './sheet.ts';
import type { XlsxRow } from './types.ts';
import type { XmlFeeder } from './xml.ts';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/**
 * The async iterator over a worksheet's rows. Hand-written rather than an
 * async generator: rows are served from the batch parsed out of the last
 * chunk with one resolved promise each, and the next chunk is read only when
 * the batch is drained (so the consumer's pace is the reading pace). About
 * twice as fast as generator delegation for 100k rows.
 *
 * Rows completed before a failure come out first, then the error is thrown.
 * Resources are released on the end, on an error, and on `return()` (a
 * `break` out of `for await`).
 */
export class RowIterator implements AsyncIterableIterator<XlsxRow, undefined> {
  private readonly chunks: AsyncGenerator<Buffer, void, undefined>;
  private readonly feeder: XmlFeeder;
  private readonly sink: SheetSink;
  private readonly onClose: () => void;
  private buffer: XlsxRow[] = [];
  private index = 0;
  private ended = false;
  private failure: { error: unknown } | undefined;
  private finished = false;
  private filling: Promise<IteratorResult<XlsxRow, undefined>> | undefined;

  constructor(chunks: AsyncGenerator<Buffer, void, undefined>, feeder: XmlFeeder, sink: SheetSink, onClose: () => void) {
    this.chunks = chunks;
    this.feeder = feeder;
    this.sink = sink;
    this.onClose = onClose;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<XlsxRow, undefined>> {
    const row = this.buffer[this.index];
    if (row !== undefined) {
      this.index++;
      return Promise.resolve({ value: row, done: false });
    }
    // Calls made while a chunk is being read wait for it (for-await never does this; manual callers might).
    if (this.filling) return this.filling.then(() => this.next());
    const filling = this.fill();
    this.filling = filling;
    return filling.finally(() => {
      if (this.filling === filling) this.filling = undefined;
    });
  }

  async return(): Promise<IteratorResult<XlsxRow, undefined>> {
    this.buffer = [];
    this.index = 0;
    this.ended = true;
    this.failure = undefined;
    await this.finish();
    return DONE;
  }

  private async fill(): Promise<IteratorResult<XlsxRow, undefined>> {
    try {
      for (;;) {
        const row = this.buffer[this.index];
        if (row !== undefined) {
          this.index++;
          return { value: row, done: false };
        }
        if (this.failure) {
          const { error } = this.failure;
          this.failure = undefined;
          throw error;
        }
        if (this.ended) {
          await this.finish();
          return DONE;
        }
        const step = await this.chunks.next();
        try {
          if (step.done) {
            this.ended = true;
            this.feeder.end();
          } else {
            this.feeder.write(step.value);
          }
        } catch (error) {
          this.ended = true;
          this.failure = { error };
        }
        this.buffer = this.sink.takeRows();
        this.index = 0;
      }
    } catch (error) {
      this.ended = true;
      this.buffer = [];
      await this.finish();
      throw error;
    }
  }

  private async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    try {
      await this.chunks.return(undefined);
    } finally {
      this.onClose();
    }
  }
}
