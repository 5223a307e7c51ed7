// The log window lives in setting/log-window.ts, below log/ and workspace/, which read it; this name stays
// for the code and tests above config/ that imported it from here before.
export * from "../setting/log-window.ts";
