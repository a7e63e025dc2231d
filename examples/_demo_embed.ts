// A toy sentence embedding for the vector tour, deterministic on every runtime: each word (after
// folding a few synonyms onto one concept) gets a pseudo-random unit vector seeded by its hash,
// and a sentence is the normalised sum of its words. Sentences sharing concepts end up close.

/** Dimensions of the demo embeddings. */
export const EMBED_DIMS = 64;

const CONCEPTS: Record<string, string> = {
  automobile: "car",
  vehicle: "car",
  cars: "car",
  engine: "car",
  mechanic: "repair",
  fixing: "repair",
  fix: "repair",
  broken: "repair",
  puppy: "dog",
  dogs: "dog",
  hound: "dog",
  kitten: "cat",
  cats: "cat",
  pasta: "food",
  pizza: "food",
  dinner: "food",
  recipe: "food",
  cooking: "food",
  bake: "food",
  bread: "food",
  laptop: "computer",
  computers: "computer",
  software: "computer",
  code: "computer",
  programming: "computer",
  vet: "animal",
  pet: "animal",
  pets: "animal",
};
const STOP = new Set(["a", "an", "the", "my", "to", "of", "and", "for", "is", "in", "on", "with"]);

function hash(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function wordVector(word: string): number[] {
  let a = hash(word);
  const v: number[] = [];
  for (let i = 0; i < EMBED_DIMS; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    v.push(((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5);
  }
  return v;
}

/** The embedding of a sentence: a unit vector of {@link EMBED_DIMS} numbers (6 decimals). */
export function embed(text: string): number[] {
  const sum = new Array<number>(EMBED_DIMS).fill(0);
  for (const raw of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    if (STOP.has(raw)) continue;
    const word = CONCEPTS[raw] ?? raw;
    const v = wordVector(word);
    // A concept word counts double, so shared meaning outweighs incidental words.
    const weight = Object.values(CONCEPTS).includes(word) ? 2 : 1;
    for (let i = 0; i < EMBED_DIMS; i++) sum[i]! += weight * v[i]!;
  }
  const norm = Math.hypot(...sum) || 1;
  return sum.map((x) => Math.round((x / norm) * 1e6) / 1e6);
}
