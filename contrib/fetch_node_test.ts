// contrib/fetch_node: the behaviour both adapters keep (./_fetch_adapter_suite.ts), then its own.
import { nodeFetch } from "./fetch_node.ts";
import { fetchAdapterSuite } from "./_fetch_adapter_suite.ts";

fetchAdapterSuite({
  name: "nodeFetch",
  make: nodeFetch,
  trusting: (ca) => nodeFetch({ tls: { ca } }),
  untrustedCode: "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
});
