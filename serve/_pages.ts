// The documentation pages: Swagger UI over the OpenAPI document, and GraphiQL
// for the GraphQL endpoint (subscriptions over its WebSocket). Each page and
// its start-up script come from this server; the scripts are files, not
// inline, so a strict Content-Security-Policy can allow 'self' alone.

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// The pages' icon, inline: without one a browser asks for /favicon.ico, which
// the API answers 404. Three joined nodes, a tree.
const ICON = "data:image/svg+xml," + encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path d="M8 13V7M8 7 3 3M8 7l5-4" stroke="#3b6" stroke-width="2" fill="none"/><circle cx="8" cy="13" r="2" fill="#3b6"/></svg>`,
);

/** A page: its title, what goes in the head, the body. */
function page(title: string, head: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${ICON}">
${head}
</head>
<body>
${body}
</body>
</html>
`;
}

/** The Swagger UI page: it loads `openapi` and lets "try it out" call this server. */
export function swaggerPage(title: string, assets: string): string {
  return page(
    title,
    `<link rel="stylesheet" href="${assets}/swagger-ui.css">`,
    `<div id="swagger-ui"></div>
<script src="${assets}/swagger-ui-bundle.js"></script>
<script src="${assets}/swagger-init.js"></script>`,
  );
}

/** Swagger UI's start: no validator badge (it would call validator.swagger.io). */
export function swaggerInit(openapi: string): string {
  return `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(openapi)},
  dom_id: "#swagger-ui",
  validatorUrl: null,
  deepLinking: true,
});
`;
}

/** The GraphiQL page. */
export function graphiqlPage(title: string, assets: string): string {
  return page(
    title,
    `<link rel="stylesheet" href="${assets}/graphiql.css">
<style>body { margin: 0; height: 100vh; } #graphiql { height: 100vh; }</style>`,
    `<div id="graphiql"></div>
${
      ["react", "react-dom", "graphiql", "graphiql-init"].map((name) =>
        `<script src="${assets}/${name}.js"></script>`
      ).join("\n")
    }`,
  );
}

/**
 * GraphiQL's start: queries and mutations POST to the endpoint with the
 * headers of GraphiQL's headers editor; a subscription opens the endpoint's
 * WebSocket and speaks graphql-transport-ws, the headers as its connection
 * parameters, giving GraphiQL an async iterable of results. A link's fragment
 * may fill the editors: `#query=...&variables=...&headers=...`.
 */
export function graphiqlInit(endpoint: string): string {
  return `(function () {
  var endpoint = new URL(${JSON.stringify(endpoint)}, location.href);
  var socketUrl = new URL(endpoint);
  socketUrl.protocol = endpoint.protocol === "https:" ? "wss:" : "ws:";
  function isSubscription(params) {
    var query = params.query || "";
    var name = params.operationName;
    var pattern = /(^|[^\\w])(query|mutation|subscription)\\s*([A-Za-z_][\\w]*)?/g;
    var match, first = null;
    while ((match = pattern.exec(query)) !== null) {
      if (first === null) first = match;
      if (name && match[3] === name) return match[2] === "subscription";
    }
    return first !== null && first[2] === "subscription";
  }
  function subscribe(params, headers) {
    var queue = [], waiting = null, done = false;
    var socket = new WebSocket(socketUrl, "graphql-transport-ws");
    function push(item) { if (waiting) { var w = waiting; waiting = null; w(item); } else queue.push(item); }
    socket.onopen = function () { socket.send(JSON.stringify({ type: "connection_init", payload: headers })); };
    socket.onmessage = function (event) {
      var message = JSON.parse(event.data);
      if (message.type === "connection_ack") {
        socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: params }));
      } else if (message.type === "next") push({ value: message.payload, done: false });
      else if (message.type === "error") { push({ value: { errors: message.payload }, done: false }); push({ done: true }); }
      else if (message.type === "complete") push({ done: true });
      else if (message.type === "ping") socket.send(JSON.stringify({ type: "pong" }));
    };
    socket.onclose = function (event) {
      if (event.code !== 1000) push({ value: { errors: [{ message: "The subscription closed: " + event.code + " " + event.reason }] }, done: false });
      push({ done: true });
    };
    return {
      [Symbol.asyncIterator]: function () { return this; },
      next: function () {
        if (queue.length > 0) return Promise.resolve(queue.shift());
        if (done) return Promise.resolve({ done: true });
        return new Promise(function (resolve) { waiting = resolve; });
      },
      return: function () {
        done = true;
        if (socket.readyState === 1) { socket.send(JSON.stringify({ id: "1", type: "complete" })); socket.close(1000); }
        return Promise.resolve({ done: true });
      },
    };
  }
  function fetcher(params, opts) {
    var headers = (opts && opts.headers) || {};
    if (isSubscription(params)) return subscribe(params, headers);
    return fetch(endpoint, {
      method: "POST",
      headers: Object.assign({}, headers, { "content-type": "application/json", accept: "application/graphql-response+json, application/json" }),
      body: JSON.stringify(params),
    }).then(function (response) { return response.json(); });
  }
  // A link may fill the editors from its fragment, which is never sent to the server.
  var link = new URLSearchParams(location.hash.slice(1));
  var props = { fetcher: fetcher };
  ["query", "variables", "headers"].forEach(function (name) {
    if (link.get(name)) props[name] = link.get(name);
  });
  // Headers a link sets are shown, not sent unseen.
  if (props.headers) props.defaultEditorToolsVisibility = "headers";
  var root = ReactDOM.createRoot(document.getElementById("graphiql"));
  root.render(React.createElement(GraphiQL, props));
})();
`;
}
