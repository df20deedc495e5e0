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

/**
 * Column index (A = 0) of a reference like "B12", "$B$12" or "b12"; -1 when it starts with no
 * letter. Counting stops past `cap` (a column beyond Excel's last is then simply too large).
 */
export function columnIndex(reference: string, cap = Number.MAX_SAFE_INTEGER): number {
  let column = 0;
  let i = reference.charCodeAt(0) === 36 /* $ */ ? 1 : 0;
  const start = i;
  for (; i < reference.length && column <= cap; i++) {
    const c = reference.charCodeAt(i);
    if (c >= 65 && c <= 90) column = column * 26 + (c - 64);
    else if (c >= 97 && c <= 122) column = column * 26 + (c - 96);
    else break;
  }
  return i === start ? -1 : column - 1;
}
