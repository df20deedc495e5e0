import { TextDecoder } from 'node:util';
import { SaxesParser } from 'saxes';
import { XlsxError } from './errors.ts';

/** Receives the events of one XML part, with element names stripped of any namespace prefix (`x:row` → `row`). */
export interface XmlSink {
  open(name: string, attributes: Readonly<Record<string, string>>, selfClosing: boolean): void;
  close(name: string): void;
  /** Text and CDATA content, entities already decoded. */
  text(text: string): void;
}

type ParserOptions = { xmlns: false; position: false };

export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/** Value of the first attribute with this local name, whatever its prefix (`r:id`, `rel:id` → `id`). */
export function attributeByLocalName(attributes: Readonly<Record<string, string>>, local: string): string | undefined {
  for (const key in attributes) {
    if (key === local || (key.endsWith(local) && key.charCodeAt(key.length - local.length - 1) === 58) /* : */) {
      return attributes[key];
    }
  }
  return undefined;
}

/**
 * Push-feeds inflated bytes of one XML part into saxes.
 *
 * Safety: saxes never fetches or expands external entities and only knows the
 * five predefined ones plus character references; on top of that any DOCTYPE
 * is refused outright (no part of an xlsx has one). Namespaces are not
 * processed (faster); names are matched by local name instead. Since saxes
 * buffers a whole text node, tag or comment before reporting it, the bytes fed
 * without any event are capped (`maxTokenBytes`).
 */
export class XmlFeeder {
  private readonly parser: SaxesParser<ParserOptions>;
  private readonly part: string;
  private readonly maxTokenBytes: number;
  private decoder: TextDecoder | undefined;
  private fed = 0;
  private lastEventAt = 0;

  constructor(part: string, sink: XmlSink, maxTokenBytes: number) {
    this.part = part;
    this.maxTokenBytes = maxTokenBytes;
    const parser = new SaxesParser<ParserOptions>({ xmlns: false, position: false });
    parser.on('doctype', () => {
      throw new XlsxError('corrupt', `${part} contains a DOCTYPE declaration`);
    });
    // Names are short and rarely prefixed: check before slicing (this runs for every element).
    parser.on('opentag', (tag) => {
      this.lastEventAt = this.fed;
      const name = tag.name;
      sink.open(name.indexOf(':') < 0 ? name : localName(name), tag.attributes, tag.isSelfClosing);
    });
    parser.on('closetag', (tag) => {
      this.lastEventAt = this.fed;
      const name = tag.name;
      sink.close(name.indexOf(':') < 0 ? name : localName(name));
    });
    parser.on('text', (text) => {
      this.lastEventAt = this.fed;
      sink.text(text);
    });
    parser.on('cdata', (text) => {
      this.lastEventAt = this.fed;
      sink.text(text);
    });
    parser.on('comment', () => {
      this.lastEventAt = this.fed;
    });
    parser.on('processinginstruction', () => {
      this.lastEventAt = this.fed;
    });
    this.parser = parser;
  }

  write(chunk: Buffer): void {
    if (this.decoder === undefined) this.decoder = new TextDecoder(sniffEncoding(chunk));
    this.fed += chunk.length;
    this.feed(this.decoder.decode(chunk, { stream: true }));
    if (this.fed - this.lastEventAt > this.maxTokenBytes) {
      throw new XlsxError('too_large', `${this.part} has a single XML token (text, tag or comment) over ${this.maxTokenBytes} bytes`);
    }
  }

  end(): void {
    if (this.decoder === undefined) throw new XlsxError('corrupt', `${this.part} is empty`);
    const rest = this.decoder.decode();
    if (rest) this.feed(rest);
    try {
      this.parser.close();
    } catch (error) {
      throw this.wrap(error);
    }
  }

  private feed(text: string): void {
    try {
      this.parser.write(text);
    } catch (error) {
      throw this.wrap(error);
    }
  }

  private wrap(error: unknown): XlsxError {
    if (error instanceof XlsxError) return error;
    const reason = error instanceof Error ? error.message : String(error);
    return new XlsxError('corrupt', `${this.part} is not well-formed XML: ${reason}`, { cause: error });
  }
}

function sniffEncoding(chunk: Buffer): string {
  if (chunk.length >= 2) {
    if (chunk[0] === 0xff && chunk[1] === 0xfe) return 'utf-16le';
    if (chunk[0] === 0xfe && chunk[1] === 0xff) return 'utf-16be';
  }
  return 'utf-8';
}

/** Reads a whole (small) part through the sink. */
export async function parsePart(chunks: AsyncIterable<Buffer>, part: string, sink: XmlSink, maxTokenBytes: number): Promise<void> {
  const feeder = new XmlFeeder(part, sink, maxTokenBytes);
  for await (const chunk of chunks) feeder.write(chunk);
  feeder.end();
}
