// Files imported with { type: "file" } (embedded by `bun build --compile`): the import is their path.
declare module "*.so" {
  const path: string;
  export default path;
}
