// `deno task fuzz [cases] [seed]`: the binding property over a million random (value, position)
// cases by default, printing the figure. A failure prints the seed and case to replay.
import { runBindingProperty } from "../tests/support/binding_property.ts";

const cases = Number(Deno.args[0] ?? 1_000_000);
const seed = Number(Deno.args[1] ?? Date.now() % 2 ** 31);
const started = performance.now();
const { refused } = runBindingProperty(cases, seed);
const seconds = (performance.now() - started) / 1000;
console.log(
  `fuzz: ${cases.toLocaleString("en")} bindings (seed ${seed}) kept their structure; ` +
    `${refused.toLocaleString("en")} refused with BindError; ${seconds.toFixed(1)} s`,
);
