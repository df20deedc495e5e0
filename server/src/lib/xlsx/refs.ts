/** Column letters for a 0-based column index: 0 → "A", 25 → "Z", 26 → "AA". */
export function columnLetters(index: number): string {
  if (!Number.isInteger(index) || index < 0) throw new RangeError('column index must be a non-negative integer');
  let letters = '';
  let n = index + 1;
  while (n > 0) {
    const rem = (n - 1) % 26;
    letters = String.fromCharCode(65 + rem) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

/** A1-style reference for messages: `cellReference(12, 1)` → "B12". */
export function cellReference(row: number, columnIndex: number): string {
  return `${columnLetters(columnIndex)}${row}`;
}
