// Numbers written with a Java `DecimalFormat` pattern, as Elasticsearch's `format` on numeric
// fields and aggregations writes them: literal prefix and suffix (quoted with `'` or bare text),
// `0` and `#` digits, `,` grouping, `.` fraction, `%` and `‰` scaling, `E0` exponents.

interface Pattern {
  prefix: string;
  suffix: string;
  minInt: number;
  minFrac: number;
  maxFrac: number;
  grouping: number;
  scale: number;
  minExp: number;
}

const cache = new Map<string, Pattern>();

function parse(text: string): Pattern {
  let p = cache.get(text);
  if (p) return p;
  const positive = text.split(";")[0]!;
  let prefix = "";
  let suffix = "";
  let body = "";
  let state: "prefix" | "body" | "suffix" = "prefix";
  for (let i = 0; i < positive.length; i++) {
    const c = positive[i]!;
    if (c === "'") {
      const end = positive.indexOf("'", i + 1);
      const lit = end === i + 1 ? "'" : positive.slice(i + 1, end < 0 ? undefined : end);
      if (state === "body") state = "suffix";
      if (state === "prefix") prefix += lit;
      else suffix += lit;
      i = end < 0 ? positive.length : end;
      continue;
    }
    const digit = "#0,.".includes(c) || (state === "body" && c === "E");
    if (digit && state !== "suffix") {
      state = "body";
      body += c;
      if (c === "E") {
        while (positive[i + 1] === "0") body += positive[++i];
      }
    } else if (state === "prefix") prefix += c;
    else {
      state = "suffix";
      suffix += c;
    }
  }
  const [mantissa = "", exp] = body.split("E");
  const [int = "", frac = ""] = mantissa.split(".");
  const comma = int.lastIndexOf(",");
  const scaled = prefix + suffix;
  p = {
    prefix,
    suffix,
    minInt: [...int].filter((c) => c === "0").length,
    minFrac: [...frac].filter((c) => c === "0").length,
    maxFrac: frac.length,
    grouping: comma < 0 ? 0 : int.length - comma - 1,
    scale: scaled.includes("%") ? 100 : scaled.includes("‰") ? 1000 : 1,
    minExp: exp === undefined ? -1 : exp.length,
  };
  if (cache.size < 256) cache.set(text, p);
  return p;
}

function digits(value: number, p: Pattern): string {
  let text = value.toFixed(Math.min(p.maxFrac, 100));
  let [int = "0", frac = ""] = text.split(".");
  while (frac.length > p.minFrac && frac.endsWith("0")) frac = frac.slice(0, -1);
  if (int === "0" && p.minInt === 0) int = frac ? "" : "0";
  while (int.length < p.minInt) int = "0" + int;
  if (p.grouping > 0) {
    let grouped = "";
    for (let i = int.length; i > 0; i -= p.grouping) {
      grouped = int.slice(Math.max(0, i - p.grouping), i) + (grouped ? "," + grouped : "");
    }
    int = grouped;
  }
  text = frac ? `${int}.${frac}` : int;
  return text;
}

/**
 * Formats `value` with a `DecimalFormat` pattern (`"0.00"`, `"#,##0"`, `"Value is ##0.0"`,
 * `"0.0E0"`, `"#%"`); `NaN` and infinities as Java writes them.
 *
 * @example
 * ```ts
 * import { decimalFormat } from "./decimal_format.ts";
 * decimalFormat(1234.5, "#,##0.00"); // "1,234.50"
 * ```
 */
export function decimalFormat(value: number, pattern: string): string {
  const p = parse(pattern);
  if (Number.isNaN(value)) return "NaN";
  const sign = value < 0 || Object.is(value, -0) ? "-" : "";
  let abs = Math.abs(value) * p.scale;
  if (abs === Infinity) return `${sign}${p.prefix}∞${p.suffix}`;
  let exponent = "";
  if (p.minExp >= 0) {
    let e = abs === 0 ? 0 : Math.floor(Math.log10(abs)) - Math.max(p.minInt, 1) + 1;
    abs = abs / 10 ** e;
    if (Number(abs.toFixed(p.maxFrac)) >= 10 ** Math.max(p.minInt, 1)) {
      abs /= 10;
      e++;
    }
    exponent = `E${e < 0 ? "-" : ""}${String(Math.abs(e)).padStart(p.minExp, "0")}`;
  }
  return `${sign}${p.prefix}${digits(abs, p)}${exponent}${p.suffix}`;
}
