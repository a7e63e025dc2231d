// The vector part of the demo: semantic search over a few notes whose embeddings come from a
// deterministic toy model (`_demo_embed.ts`). Shows LambdaTemplate's vector orders and thresholds
// and a hybrid knn + match query through JdbcTemplate, each with the command it sends.
import type { RowMap } from "../template/mod.ts";
import { LambdaTemplate } from "../lambda/mod.ts";
import { formatTable } from "./_demo_table.ts";
import { embed, EMBED_DIMS } from "./_demo_embed.ts";
import type { TourContext } from "./tour_lambda.ts";

const NOTES: Array<[string, string]> = [
  ["cars", "My automobile needs a mechanic, the engine is broken"],
  ["cars", "Fixing the brakes of an old vehicle"],
  ["cars", "Electric cars charge overnight"],
  ["pets", "The puppy learned to sit and fetch"],
  ["pets", "Taking the kitten to the vet for shots"],
  ["pets", "Dogs need a long walk every day"],
  ["food", "A quick pasta recipe for dinner"],
  ["food", "How to bake bread with a crisp crust"],
  ["food", "Pizza dough rests for a day"],
  ["tech", "Programming a laptop to back up code"],
  ["tech", "Software updates broke my computer"],
  ["tech", "Learning to fix computers at home"],
];

const COLUMNS = ["_id", "topic", "text"];
const table = (rows: readonly Record<string, unknown>[]) =>
  formatTable(rows as unknown as RowMap[], COLUMNS, 70);

/** Runs the vector-search tour on its own `notes` index (removed at the end). */
export async function tourVectors({ jdbc, section }: TourContext): Promise<void> {
  const mapping = `PUT /notes {"mappings": {"properties": {
  "text": {"type": "text"}, "topic": {"type": "keyword"},
  "embedding": {"type": "dense_vector", "dims": ${EMBED_DIMS}, "similarity": "cosine"}}}}`;
  section("vectors: an index with a dense_vector field", mapping);
  await jdbc.execute(mapping);
  const lambda = new LambdaTemplate(jdbc);
  try {
    const inserted = await lambda.insert("notes").applyMap(
      NOTES.map(([topic, text], i) => ({ _id: `n${i + 1}`, topic, text, embedding: embed(text) })),
    ).executeSumResult();
    console.log(`  ${inserted} notes with ${EMBED_DIMS}-dimension embeddings`);

    const ask = "who can repair my car";
    const nearest = lambda.query("notes").select("topic", "text")
      .orderByCosine("embedding", embed(ask)).knnOptions({ k: 3 });
    const shown = nearest.toCommand();
    section(
      `lambda: the 3 notes nearest to "${ask}" (knn section)`,
      shown.text,
      [shown.args[0], `<${EMBED_DIMS} numbers>`, ...shown.args.slice(2)],
    );
    console.log(table(await nearest.queryForMapList()));

    const filtered = lambda.query("notes").eq("topic", "tech").select("topic", "text")
      .orderByCosine("embedding", embed(ask)).knnOptions({ k: 2 });
    section(
      "lambda: nearest among topic = tech (the condition is knn's pre-filter)",
      filtered.toCommand().text,
    );
    console.log(table(await filtered.queryForMapList()));

    const close = lambda.query("notes").select("topic", "text")
      .vectorByCosine("embedding", embed("dinner recipe"), 0.5);
    section(
      'lambda: every note within cosine distance 0.5 of "dinner recipe" (threshold bound, never in the script)',
      close.toCommand().text,
    );
    console.log(table(await close.queryForMapList()));

    const hybrid = `POST /notes/_search {"knn": {"field": "embedding", "query_vector": #{v},
  "k": 2, "num_candidates": 10}, "query": {"match": {"text": #{q}}}, "_source": ["topic", "text"], "size": 4}`;
    section("JdbcTemplate: hybrid search — knn hits and match hits, scores summed", hybrid, {
      v: "embed('my puppy at the vet')",
      q: "walk",
    });
    const rows = await jdbc.queryForList(hybrid, { v: embed("my puppy at the vet"), q: "walk" });
    console.log(
      table(rows.map((r) => ({ _id: r._ID, ...JSON.parse(r._DOC as string) }))),
    );
  } finally {
    await jdbc.execute("DELETE /notes");
  }
}
