import assert from "node:assert/strict";
import { textNode } from "./_placeholders.ts";
import { RenderContext } from "./_render_context.ts";

const rendered = (text: string, renames: Record<string, string>): string => {
  const ctx = new RenderContext({}, true);
  for (const [name, to] of Object.entries(renames)) ctx.scope.push({ name, value: 0, renamed: to });
  textNode(text).apply(ctx);
  return ctx.out.join("");
};

Deno.test("textNode: placeholders are split once; loop renames touch only their head name", () => {
  const node = textNode('{"a": #{item.b[0]}, "b": #{ other }, "c": ${item}}');
  assert.equal(node.parts.filter((p) => typeof p !== "string").length, 3);
  assert.equal(
    rendered('{"a": #{item.b[0]}, "b": #{ other }, "c": ${item}, "d": #{items}}', {
      item: "__frch_item_0",
    }),
    '{"a": #{__frch_item_0.b[0]}, "b": #{ other }, "c": ${__frch_item_0}, "d": #{items}}',
  );
});

Deno.test("textNode: escaped markers and #{} inside JSON strings are text; ${} in strings is renamed", () => {
  assert.equal(
    rendered('\\#{item} "#{item}" "x ${item} y" "\\"#{item}"', { item: "g" }),
    '\\#{item} "#{item}" "x ${g} y" "\\"#{item}"',
  );
});

Deno.test("textNode: text without placeholders renders as one piece", () => {
  const node = textNode("GET /_cluster/health");
  assert.deepEqual(node.parts, ["GET /_cluster/health"]);
  assert.equal(rendered("GET /x", { x: "y" }), "GET /x");
});

Deno.test('textNode: a """ string is one string token, as the driver reads it', () => {
  assert.equal(
    rendered('{"s": """a "#{item}" ${item}\n"""} #{item}', { item: "g" }),
    '{"s": """a "#{item}" ${g}\n"""} #{g}',
  );
});
