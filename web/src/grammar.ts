// Grammar of names in the page's sentences (no state: words.ts runs under Node in the tests too).

/** Swedish genitive of a name: "Anna" -> "Annas", "Lars" -> "Lars", "Dator 2" -> "Dator 2:s". */
export function genitiveSv(name: string): string {
  if (/[sxz]$/i.test(name)) return name;
  if (/[0-9)]$/.test(name) || /^[A-ZÅÄÖ0-9]+$/.test(name)) return `${name}:s`;
  return `${name}s`;
}

/** A name cut to at most ``max`` characters (code points) with an ellipsis, for the places where a whole name of up
 * to the server's 40 characters would take several lines on a phone: the lay-away button, the score line. */
export function clip(name: string, max = 14): string {
  const chars = Array.from(name);
  return chars.length <= max ? name : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}

/** A text shown on its own, as a sentence: its first letter a capital ("you accept: ..." -> "You accept: ..."). */
export function sentence(text: string, locale?: string): string {
  return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
}
