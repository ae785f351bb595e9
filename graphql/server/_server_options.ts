// Every option of `createGraphQLServer`, listed once, apart from the server so
// that the HTTP transport reads the list without loading graphql-js: the
// server checks it against its options type, and refuses any other key.

export const GRAPHQL_SERVER_OPTIONS = [
  "introspection",
  "limits",
  "documentCacheSize",
  "documentCacheBytes",
  "trustedDocuments",
  "readNames",
  "errors",
  "onError",
  "timeoutMs",
] as const;
