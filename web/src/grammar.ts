// Grammar of names in the page's sentences (no state: words.ts runs under Node in the tests too).

/** Swedish genitive of a name: "Anna" -> "Annas", "Lars" -> "Lars", "Dator 2" -> "Dator 2:s". */
export function genitiveSv(name: string): string {
  if (/[sxz]$/i.test(name)) return name;
  if (/[0-9)]$/.test(name) || /^[A-ZÅÄÖ0-9]+$/.test(name)) return `${name}:s`;
  return `${name}s`;
}
