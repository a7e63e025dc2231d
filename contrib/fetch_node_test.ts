// contrib/fetch_node: the behaviour both adapters keep (tests/support/fetch_adapter_suite.ts),
// run on nodeFetch.
import { nodeFetch } from "./fetch_node.ts";
import { fetchAdapterSuite } from "../tests/support/fetch_adapter_suite.ts";

fetchAdapterSuite({
  name: "nodeFetch",
  make: nodeFetch,
  trusting: (ca) => nodeFetch({ tls: { ca } }),
  untrustedCode: "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
});
