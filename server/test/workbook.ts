import ExcelJS from 'exceljs';

/**
 * An xlsx answer opened with ExcelJS, another program's reader. ExcelJS declares its input as its
 * own `Buffer` interface (an ArrayBuffer), which Node's `Buffer<ArrayBufferLike>` does not match by
 * type; the bytes are what it reads, so the one cast is here.
 */
export async function openWorkbook(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  return book;
}
