/** Not translated yet (docs/product.md §1): every key falls back to en-US. */
export const catalogue: Record<string, string> = {};
