// The hostile-agent corpus under bwrap (as root in CI: the dangerous case): the cases and what they prove are in
// hostile-corpus.ts and test/workspace/hostile.test.ts, which runs them with no sandbox in the fast tier.
import { defineCorpus } from "./hostile-corpus.ts";

defineCorpus(["bwrap"]);
