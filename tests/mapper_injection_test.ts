// Bound values never change a statement's structure or address another resource: values full of
// quotes, braces, placeholders and path tricks go through every position (path, query string,
// JSON value, JSON key, inside a JSON string, whole body) of every statement annotation, and
// each statement touches exactly the one document it names.
import assert from "node:assert/strict";
import {
  BindError,
  CommandSyntaxError,
  InvalidArgumentError,
  ResponseError,
} from "../driver/mod.ts";
import {
  bound,
  Delete,
  Execute,
  Insert,
  MapperError,
  Query,
  SimpleMapper,
  Update,
} from "../mapper/mod.ts";
import type { RowMap } from "../template/mod.ts";
import { mapperFixture } from "./support/mapper_fixture.ts";

const EVIL = [
  '"}, "match_all": {}, "x": {"',
  '\\"}}]} ,{"query":{"match_all":{}}}',
  '{"query": {"match_all": {}}}',
  "#{other} ${index} @{macro, all} @{and, x} ? {?} :name",
  "a/../../_all/_delete_by_query",
  "x?refresh=true&q=*#frag",
  "'; DELETE /vault\nPOST /vault/_delete_by_query {}",
  "tab\tnull\u0000 line\u2028sep 🙂",
  "*",
];

interface Args {
  id: string;
  r: string;
  name: string;
  key: string;
}

@SimpleMapper({ namespace: "vault" })
class VaultMapper {
  @Insert(
    'PUT /vault/_doc/#{id}?routing=#{r}&refresh=true {"name": #{name}, #{key}: #{name}, "note": "said: \\#{name}"}',
  )
  put(_args: Args): Promise<number> {
    return bound();
  }
  @Query("GET /vault/_doc/#{id}?routing=#{r}", { returns: "one" })
  get(_args: { id: string; r: string }): Promise<RowMap | null> {
    return bound();
  }
  @Query(
    'POST /vault/_search {"query": {"bool": {"filter": [{"term": {"name": #{name}}}, {"term": {#{field}: #{name}}}]}}}',
  )
  find(_args: { name: string; field: string }): Promise<RowMap[]> {
    return bound();
  }
  @Query("POST /#{index}/_search", { returns: "list" })
  searchIndex(_args: { index: string }): Promise<RowMap[]> {
    return bound();
  }
  @Update(
    'POST /vault/_update/#{id}?routing=#{r}&refresh=true {"doc": {"extra": #{name}, #{key}: "u: \\#{name}"}}',
  )
  patch(_args: Args): Promise<number> {
    return bound();
  }
  @Update(
    'POST /vault/_update_by_query?refresh=true {"query": {"term": {"name": #{name}}}, "script": {"source": "ctx._source.touched = params.v", "params": {"v": #{name}}}}',
  )
  touch(_args: { name: string }): Promise<number> {
    return bound();
  }
  @Delete('POST /vault/_delete_by_query?refresh=true {"query": {"term": {"name": #{name}}}}')
  remove(_args: { name: string }): Promise<number> {
    return bound();
  }
  @Execute("PUT /vault/_doc/#{id}?refresh=true #{doc}\nPOST /vault/_count", { returns: "results" })
  putDoc(_args: { id: string; doc: Record<string, unknown> }): Promise<unknown[]> {
    return bound();
  }
  @Query("POST /${index}/_search")
  splice(_args: { index: string }): Promise<RowMap[]> {
    return bound();
  }
}

const MAPPING =
  'PUT /vault {"mappings": {"dynamic_templates": [{"strings": {"match_mapping_type": "string", "mapping": {"type": "keyword"}}}], "properties": {"name": {"type": "keyword"}, "note": {"type": "keyword"}}}}';

const keyOf = (i: number, value: string) => `k${i} ${value.replaceAll(".", "_")}`;

Deno.test("injection: every position of every annotation binds the value as data", async () => {
  const { session, sent } = await mapperFixture("in-process", {}, [
    MAPPING,
    'PUT /vault/_doc/bystander?refresh=true {"name": "bystander", "note": "said: bystander"}',
  ]);
  const vault = session.createMapper(VaultMapper);
  for (const [i, value] of EVIL.entries()) {
    const args: Args = { id: `id ${i} ${value}`, r: value, name: value, key: keyOf(i, value) };
    assert.equal(await vault.put(args), 1, `insert #${i}`);
    const row = await vault.get({ id: args.id, r: args.r });
    assert.ok(row, `get #${i}`);
    assert.equal(row._ID, args.id);
    const doc = JSON.parse(row._DOC as string);
    // An escaped marker inside a JSON string is text: the value never enters it.
    assert.deepEqual(doc, { name: value, [args.key]: value, note: "said: #{name}" }, `doc #${i}`);

    const found = await vault.find({ name: value, field: "name" });
    assert.deepEqual(found.map((r) => r._ID), [args.id], `search #${i}`);

    assert.equal(await vault.patch(args), 1, `update #${i}`);
    const patched = JSON.parse((await vault.get({ id: args.id, r: args.r }))!._DOC as string);
    assert.equal(patched.extra, value);
    assert.equal(patched[args.key], "u: #{name}");
    assert.equal(await vault.touch({ name: value }), 1, `update by query #${i}`);

    const docId = `whole ${i} ${value}`;
    // A dotted key with an empty part ("a..b") is refused by both real engines: keys as above.
    const results = await vault.putDoc({
      id: docId,
      doc: { [keyOf(i, value)]: value, name: `w${i}` },
    });
    assert.equal(results[0], 1, `execute #${i}`);
    assert.equal(await vault.remove({ name: `w${i}` }), 1);

    assert.equal(await vault.remove({ name: value }), 1, `delete #${i}`);
    assert.equal(await vault.get({ id: args.id, r: args.r }), null);
  }
  const left = await vault.find({ name: "bystander", field: "name" });
  assert.deepEqual(left.map((r) => r._ID), ["bystander"], "the bystander was never touched");
  const bystander = JSON.parse(left[0]!._DOC as string);
  assert.deepEqual(bystander, { name: "bystander", note: "said: bystander" });
  for (const request of sent) {
    assert.ok(request.path.startsWith("/vault/"), `only /vault was addressed: ${request.path}`);
  }
});

Deno.test("injection: a placeholder inside a JSON string is refused when the mapper is created", async () => {
  const { session, sent } = await mapperFixture("in-process");
  @SimpleMapper({ namespace: "vault" })
  class Quoted {
    @Query('POST /vault/_count {"query": {"term": {"note": "said: #{name}"}}}', {
      returns: "number",
    })
    quoted(_args: { name: string }): Promise<number> {
      return bound();
    }
  }
  assert.throws(() => session.createMapper(Quoted), (e: unknown) => {
    assert.ok(e instanceof CommandSyntaxError, String(e));
    assert.match(
      e.message,
      /^Quoted\.quoted \[statement vault\.quoted\]: a #\{…\} inside a JSON string/,
    );
    return true;
  });
  assert.equal(sent.length, 0);
});

Deno.test("injection: a value in the index position is encoded as one segment, and ${} refuses non-identifiers", async () => {
  const { session, sent } = await mapperFixture("in-process", {}, [
    MAPPING,
    'PUT /vault/_doc/1?refresh=true {"name": "one"}',
  ]);
  const vault = session.createMapper(VaultMapper);
  for (
    const value of ["vault/_doc/1", "vault,other", "vault/../vault", "vault?q=one", "_all", "*"]
  ) {
    sent.length = 0;
    const outcome = await vault.searchIndex({ index: value }).then(
      (rows) => rows,
      (e: unknown) => e,
    );
    if (outcome instanceof InvalidArgumentError) {
      // refused before sending: the value would widen the target
      assert.match(outcome.message, /^VaultMapper\.searchIndex \[statement vault\.searchIndex\]: /);
      assert.equal(sent.length, 0);
      continue;
    }
    if (Array.isArray(outcome)) {
      assert.equal(outcome.length, 0, `${value} must not reach the vault's documents`);
    } else {
      assert.ok(outcome instanceof ResponseError, String(outcome));
      assert.match(outcome.message, /^VaultMapper\.searchIndex \[statement vault\.searchIndex\]: /);
    }
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.path.split("/").length, 3, `one path segment for ${sent[0]!.path}`);
  }
  for (const value of ['vault"', "vault/_doc", "vault _search", "{?}"]) {
    await assert.rejects(vault.splice({ index: value }), (e: unknown) => {
      assert.ok(e instanceof BindError, String(e));
      assert.match(e.message, /^VaultMapper\.splice \[statement vault\.splice\]: /);
      return true;
    });
  }
  assert.deepEqual((await vault.splice({ index: "vault" })).map((r) => r._ID), ["1"]);
  assert.ok(!(new Error() instanceof MapperError));
});
