/*
 * Characters no text input may hold: PostgreSQL refuses U+0000 in text (the request
 * used to end in a 500), and half of a UTF-16 surrogate pair cannot be written as UTF-8 at all.
 * Other C0 control characters are refused too: nobody types them, and they only hide text in
 * logs, exports and e-mails. Tab, line feed and carriage return are ordinary text.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
// A high surrogate not followed by a low one, or a low one not preceded by a high one (without
// the u flag the pattern sees UTF-16 units). String#isWellFormed says the same but needs ES2024 types.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasDisallowedCharacters(text: string): boolean {
  return CONTROL_CHARACTERS.test(text) || LONE_SURROGATE.test(text);
}

/** The most fields one answer names; a body of a million bad strings gets the first ones. */
const MAX_REPORTED = 20;

/**
 * The paths (`name`, `settings.x`, `items.0.name`) of the strings in a parsed request part that
 * hold disallowed characters, in document order. An object key holding them is reported on the
 * object (`root` when it is the whole part). Walked with an explicit stack: a JSON body nested a
 * hundred thousand levels deep must not overflow the call stack.
 */
export function findDisallowedText(value: unknown, root: string): string[] {
  const found: string[] = [];
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length > 0 && found.length < MAX_REPORTED) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (hasDisallowedCharacters(current)) found.push(path || root);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: join(path, String(i)) });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      if (entries.some(([key]) => hasDisallowedCharacters(key))) found.push(path || root);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        if (!hasDisallowedCharacters(key)) stack.push({ value: child, path: join(path, key) });
      }
    }
  }
  return [...new Set(found)];
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** Cuts a text to at most `max` UTF-16 units without leaving half of a surrogate pair at the end. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}
