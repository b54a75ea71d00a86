/**
 * A BM25 ranking over a fixed set of documents, built once (a catalog change builds a new one).
 * Each document is a bag of weighted terms: a term found in a tool's name counts more than one
 * found in a parameter's description (see `tool-document.ts`), so term frequency and document
 * length are weighted sums (the BM25F simplification of one length over all fields).
 */

/** One document to rank: its key and its terms, each with the weight of the field it came from. */
export interface IndexedDocument<K> {
  readonly key: K;
  readonly terms: ReadonlyMap<string, number>;
}

/** One ranked match. */
export interface RankedMatch<K> {
  readonly key: K;
  readonly score: number;
}

/** How much a term's repetition counts (saturation), and how much a long document is discounted. */
const K1 = 1.2;
const B = 0.75;

export class Bm25Index<K> {
  /** For each term, the documents that hold it and the term's weighted frequency there. */
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  private readonly lengths: number[];
  private readonly averageLength: number;

  constructor(private readonly documents: readonly IndexedDocument<K>[]) {
    this.lengths = documents.map((document, doc) => {
      let length = 0;
      for (const [term, tf] of document.terms) {
        length += tf;
        let list = this.postings.get(term);
        if (!list) this.postings.set(term, (list = []));
        list.push({ doc, tf });
      }
      return length;
    });
    this.averageLength = this.lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, documents.length);
  }

  /** How many documents the index holds. */
  get size(): number {
    return this.documents.length;
  }

  /** Every document with a positive score for the query terms, best first (ties by insertion order, so results are stable). */
  rank(queryTerms: readonly string[]): RankedMatch<K>[] {
    const scores = new Map<number, number>();
    const n = this.documents.length;
    // A term repeated in the query counts once: a query is a short wish, not a document.
    for (const term of new Set(queryTerms)) {
      const list = this.postings.get(term);
      if (!list) continue;
      // The "+1" form of the IDF stays positive for a term found in more than half the documents.
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        const norm = tf + K1 * (1 - B + (B * this.lengths[doc]) / this.averageLength);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * (tf * (K1 + 1))) / norm);
      }
    }
    return [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([doc, score]) => ({ key: this.documents[doc].key, score }));
  }
}
