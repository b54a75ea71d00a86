/**
 * How tool text becomes search terms: the same function for the catalog and for the query, so a
 * word matches whether it was written `readFile`, `read_file`, `fs.read-file` or "read a file".
 * No dictionary and no model: splitting, lower case, a short stop list and a light suffix
 * stripper, which is enough for names and one-paragraph descriptions.
 */

/** Words that say nothing about what a tool does (they would only add noise to every score). */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be by can do does for from has have how i if in into is it its me my of on or our so ' +
    'that the their them then there these this to was we what when which who will with you your tool tools ' +
    'use used using should would could want need needs please some any all given one'
  ).split(' ')
);

/**
 * The terms of a text, in order (a term may repeat: its count is its weight). camelCase and
 * PascalCase are split (`getUserById` → get, user, by, id), as are digits from letters, dots,
 * underscores, hyphens, slashes and every other non-alphanumeric character.
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  const spaced = text
    // `getHTTPResponse` → `get HTTP Response`; `userID2` → `user ID 2`.
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([a-zA-Z])([0-9])/g, '$1 $2')
    .replace(/([0-9])([a-zA-Z])/g, '$1 $2')
    .toLowerCase();
  for (const word of spaced.split(/[^a-z0-9]+/)) {
    if (word.length === 0 || STOP_WORDS.has(word)) continue;
    terms.push(stem(word));
  }
  return terms;
}

/**
 * A light suffix stripper: plurals and the commonest verb endings, so that "files", "listing"
 * and "listed" meet "file" and "list". Deliberately cautious (short words are left alone): a
 * wrong merge costs precision on every query, a missed one only on the queries that use it.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /^[0-9]+$/.test(word)) return word;
  return dropFinalE(stripSuffix(word));
}

function stripSuffix(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 4 && !word.endsWith('eed')) return undouble(word.slice(0, -2));
  if (/(?:ch|sh|x|ss|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

/** `create`, `created`, `creating` all end as `creat`: the final e goes, whatever came before. */
function dropFinalE(word: string): string {
  return word.length >= 4 && word.endsWith('e') && !word.endsWith('ee') ? word.slice(0, -1) : word;
}

/** `stopp` → `stop`, `runn` → `run` (what stripping `-ing`/`-ed` leaves after a doubled consonant). */
function undouble(word: string): string {
  const last = word[word.length - 1];
  return word.length > 3 && last === word[word.length - 2] && !'aeiouls'.includes(last) ? word.slice(0, -1) : word;
}
