// `GET /_script_context` and `GET /_script_language`: the script contexts each product registers
// and the languages that may run in them, as the real engines answer (Elasticsearch 9.5.4's
// distribution the engine was compared with, OpenSearch 3.8.0 with every module), copied from
// their answers. A context is written `method:return type(parameter type name,…);…`.

import { ok, type Reply, type RequestContext } from "./context.ts";

/** Contexts both products register alike. */
const SHARED: ReadonlyMap<string, string> = new Map([
  ["aggregation_selector", "execute:boolean();getParams:java.util.Map()"],
  [
    "aggs",
    "execute:java.lang.Object();getDoc:java.util.Map();getParams:java.util.Map();get_score:java.lang.Number();get_value:java.lang.Object()",
  ],
  ["aggs_combine", "execute:java.lang.Object();getParams:java.util.Map();getState:java.util.Map()"],
  ["aggs_init", "execute:void();getParams:java.util.Map();getState:java.lang.Object()"],
  [
    "aggs_map",
    "execute:void();getDoc:java.util.Map();getParams:java.util.Map();getState:java.util.Map();get_score:double()",
  ],
  [
    "aggs_reduce",
    "execute:java.lang.Object();getParams:java.util.Map();getStates:java.util.List()",
  ],
  ["bucket_aggregation", "execute:java.lang.Number();getParams:java.util.Map()"],
  ["field", "execute:java.lang.Object();getDoc:java.util.Map();getParams:java.util.Map()"],
  ["filter", "execute:boolean();getDoc:java.util.Map();getParams:java.util.Map()"],
  [
    "number_sort",
    "execute:double();getDoc:java.util.Map();getParams:java.util.Map();get_score:double()",
  ],
  ["script_heuristic", "execute:double(java.util.Map params)"],
  [
    "string_sort",
    "execute:java.lang.String();getDoc:java.util.Map();getParams:java.util.Map();get_score:double()",
  ],
  ["template", "execute:java.lang.String();getParams:java.util.Map()"],
  ["terms_set", "execute:java.lang.Number();getDoc:java.util.Map();getParams:java.util.Map()"],
  ["update", "execute:void();getCtx:java.util.Map();getParams:java.util.Map()"],
]);

/** Elasticsearch's own contexts (or its own methods for a shared name). */
const ELASTICSEARCH: ReadonlyMap<string, string> = new Map([
  ["boolean_field", "execute:void();getDoc:java.util.Map();getParams:java.util.Map()"],
  [
    "bytesref_sort",
    "execute:java.lang.Object();getDoc:java.util.Map();getParams:java.util.Map();get_score:double()",
  ],
  [
    "composite_field",
    "execute:void();getDoc:java.util.Map();getFieldValues:java.util.Map();getParams:java.util.Map()",
  ],
  ["date_field", "execute:void();getDoc:java.util.Map();getParams:java.util.Map()"],
  ["double_field", "execute:void();getDoc:java.util.Map();getParams:java.util.Map()"],
  ["double_values", "execute:double()"],
  ["geo_point_field", "execute:void();getDoc:java.util.Map();getParams:java.util.Map()"],
  ["geometry_field", "execute:void();getDoc:java.util.Map();getParams:java.util.Map()"],
  ["ingest", "execute:void();getCtx:java.util.Map();getParams:java.util.Map()"],
  ["ingest_template", "execute:java.lang.String();getParams:java.util.Map()"],
  [
    "interval",
    "execute:boolean(org.elasticsearch.index.query.IntervalFilterScript$Interval interval)",
  ],
  ["ip_field", "execute:void();getDoc:java.util.Map();getParams:java.util.Map()"],
  [
    "keyword_field",
    "execute:void();getDoc:java.util.Map();getParams:java.util.Map();getValues:java.util.List()",
  ],
  ["long_field", "execute:void();getDoc:java.util.Map();getParams:java.util.Map()"],
  ["processor_conditional", "execute:boolean();getCtx:java.util.Map();getParams:java.util.Map()"],
  ["reindex", "execute:void();getCtx:java.util.Map();getParams:java.util.Map()"],
  [
    "score",
    "execute:double(org.elasticsearch.script.ScoreScript$ExplanationHolder explanation);getDoc:java.util.Map();getParams:java.util.Map();get_score:double();get_termStats:org.elasticsearch.script.ScriptTermStats()",
  ],
  [
    "similarity",
    "execute:double(double weight,org.elasticsearch.index.similarity.ScriptedSimilarity$Query query,org.elasticsearch.index.similarity.ScriptedSimilarity$Field field,org.elasticsearch.index.similarity.ScriptedSimilarity$Term term,org.elasticsearch.index.similarity.ScriptedSimilarity$Doc doc)",
  ],
  [
    "similarity_weight",
    "execute:double(org.elasticsearch.index.similarity.ScriptedSimilarity$Query query,org.elasticsearch.index.similarity.ScriptedSimilarity$Field field,org.elasticsearch.index.similarity.ScriptedSimilarity$Term term)",
  ],
  ["update_by_query", "execute:void();getCtx:java.util.Map();getParams:java.util.Map()"],
]);

/** OpenSearch's own contexts (or its own methods for a shared name). */
const OPENSEARCH: ReadonlyMap<string, string> = new Map([
  [
    "analysis",
    "execute:boolean(org.opensearch.analysis.common.AnalysisPredicateScript$Token token)",
  ],
  ["context_aware_grouping", "execute:java.lang.String(java.util.Map ctx)"],
  [
    "derived_field",
    "execute:void();getDoc:java.util.Map();getEmittedValues:java.util.List();getParams:java.util.Map()",
  ],
  ["ingest", "execute:void(java.util.Map ctx);getParams:java.util.Map()"],
  [
    "interval",
    "execute:boolean(org.opensearch.index.query.IntervalFilterScript$Interval interval)",
  ],
  ["moving-function", "execute:double(java.util.Map params,double[] values)"],
  ["painless_test", "execute:java.lang.Object();getParams:java.util.Map()"],
  ["processor_conditional", "execute:boolean(java.util.Map ctx);getParams:java.util.Map()"],
  [
    "score",
    "execute:double(org.opensearch.script.ScoreScript$ExplanationHolder explanation);getDoc:java.util.Map();getParams:java.util.Map();get_score:double()",
  ],
  ["search", "execute:void(java.util.Map ctx);getParams:java.util.Map()"],
  [
    "similarity",
    "execute:double(double weight,org.opensearch.index.similarity.ScriptedSimilarity$Query query,org.opensearch.index.similarity.ScriptedSimilarity$Field field,org.opensearch.index.similarity.ScriptedSimilarity$Term term,org.opensearch.index.similarity.ScriptedSimilarity$Doc doc)",
  ],
  [
    "similarity_weight",
    "execute:double(org.opensearch.index.similarity.ScriptedSimilarity$Query query,org.opensearch.index.similarity.ScriptedSimilarity$Field field,org.opensearch.index.similarity.ScriptedSimilarity$Term term)",
  ],
]);

/** OpenSearch's languages and the contexts each may run in; Elasticsearch's distribution lists none. */
const OPENSEARCH_LANGUAGES: readonly { language: string; contexts: readonly string[] }[] = [
  {
    "language": "expression",
    "contexts": [
      "aggregation_selector",
      "aggs",
      "bucket_aggregation",
      "field",
      "filter",
      "number_sort",
      "score",
      "terms_set",
    ],
  },
  {
    "language": "mustache",
    "contexts": [
      "template",
    ],
  },
  {
    "language": "painless",
    "contexts": [
      "aggregation_selector",
      "aggs",
      "aggs_combine",
      "aggs_init",
      "aggs_map",
      "aggs_reduce",
      "analysis",
      "bucket_aggregation",
      "context_aware_grouping",
      "derived_field",
      "field",
      "filter",
      "ingest",
      "interval",
      "moving-function",
      "number_sort",
      "painless_test",
      "processor_conditional",
      "score",
      "script_heuristic",
      "search",
      "similarity",
      "similarity_weight",
      "string_sort",
      "template",
      "terms_set",
      "update",
    ],
  },
];

interface Method {
  name: string;
  return_type: string;
  params: { type: string; name: string }[];
}

function methods(spec: string): Method[] {
  return spec.split(";").map((m) => {
    const colon = m.indexOf(":");
    const open = m.indexOf("(", colon);
    const args = m.slice(open + 1, -1);
    return {
      name: m.slice(0, colon),
      return_type: m.slice(colon + 1, open),
      params: args === "" ? [] : args.split(",").map((p) => {
        const space = p.lastIndexOf(" ");
        return { type: p.slice(0, space), name: p.slice(space + 1) };
      }),
    };
  });
}

/** `GET /_script_context`: every context, by name. */
export function scriptContextHandler(ctx: RequestContext): Reply {
  const own = ctx.state.flavour === "opensearch" ? OPENSEARCH : ELASTICSEARCH;
  const all = new Map([...SHARED, ...own]);
  const contexts = [...all.keys()].sort().map((name) => ({
    name,
    methods: methods(all.get(name)!),
  }));
  return ok({ contexts });
}

/** `GET /_script_language`: the script types allowed and each language's contexts. */
export function scriptLanguageHandler(ctx: RequestContext): Reply {
  return ok({
    types_allowed: ["inline", "stored"],
    language_contexts: ctx.state.flavour === "opensearch" ? OPENSEARCH_LANGUAGES : [],
  });
}
