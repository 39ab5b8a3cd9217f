/**
 * The document and a page to browse it, served by the mock itself (issue 13, point 2):
 *
 *   GET /openapi.yaml        the document as written
 *   GET /openapi.json        the same document as JSON, with this mock listed as its first server, so the
 *                            page's "Try it out" calls this mock rather than the document's default address
 *   GET /__mock/docs         Swagger UI (the files of swagger-ui-dist, copied into dist/ by the build), from local files
 *   GET /__mock/docs/FILE    its script, style sheet and icons; nothing is fetched from any other host
 *
 * Pure: the files come in through `DocsFiles` (docs-files.ts reads them from disk in Node), so the core stays
 * free of I/O and an adapter without a disk (MSW in a browser) simply has no docs.
 */

export const DOCS_PATH = '/__mock/docs';
export const DOCUMENT_PATHS = ['/openapi.yaml', '/openapi.json'] as const;

export interface DocsFiles {
  /** The document's text, as written. */
  readonly yaml: string;
  /** The document as JSON (not dereferenced: $refs kept, as written). */
  readonly document: Readonly<Record<string, unknown>>;
  /** A file of swagger-ui-dist by its name, or undefined when there is no such file. */
  asset(name: string): Uint8Array | undefined;
}

export interface RawAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly bytes: Uint8Array | string;
}

export type DocsOutcome = RawAnswer | { readonly refused: 'method' | 'missing'; readonly message: string };

export interface Docs {
  /**
   * The answer for a docs path, or undefined when `path` is not one (the API's own paths go on to the router); a
   * refusal becomes an Error in the core, like every other.
   */
  answer(method: string, path: string): DocsOutcome | undefined;
}

/** The files of swagger-ui-dist the page uses: nothing else of the package is served. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

export function createDocs(files: DocsFiles, basePath: string, title: string): Docs {
  // This mock first, then the document's own servers: Swagger UI sends "Try it out" to the first one.
  const servers = Array.isArray(files.document['servers']) ? files.document['servers'] : [];
  const json = JSON.stringify({ ...files.document, servers: [{ url: basePath === '' ? '/' : basePath, description: 'this mock' }, ...servers] }, null, 2);
  const page = docsPage(title);
  const init = initScript();

  return {
    answer(method, path) {
      const known = path === DOCS_PATH || path === `${DOCS_PATH}/` || path === '/openapi.yaml' || path === '/openapi.json' || path.startsWith(`${DOCS_PATH}/`);
      if (!known) return undefined;
      if (method !== 'GET' && method !== 'HEAD') return { refused: 'method', message: `${method.slice(0, 20)} is not allowed on ${path.slice(0, 100)}; use GET.` };
      // RFC 9512 registers application/yaml.
      if (path === '/openapi.yaml') return { status: 200, contentType: 'application/yaml; charset=utf-8', bytes: files.yaml };
      if (path === '/openapi.json') return { status: 200, contentType: 'application/json; charset=utf-8', bytes: json };
      if (path === DOCS_PATH || path === `${DOCS_PATH}/`) return { status: 200, contentType: 'text/html; charset=utf-8', bytes: page };
      const name = path.slice(DOCS_PATH.length + 1);
      if (name === 'init.js') return { status: 200, contentType: 'text/javascript; charset=utf-8', bytes: init };
      const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
      const bytes = type === undefined ? undefined : files.asset(name);
      if (type === undefined || bytes === undefined) return { refused: 'missing', message: `The docs page has no file ${name.slice(0, 100)}; the page itself is ${DOCS_PATH}.` };
      return { status: 200, contentType: type, bytes };
    },
  };
}

function docsPage(title: string): string {
  const safe = title.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${safe} · petstore-kit mock</title>
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
<link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;
}

/** Swagger UI's options: the local document, no online validator badge (it would call validator.swagger.io). */
function initScript(): string {
  return `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  validatorUrl: null,
  deepLinking: true,
  displayOperationId: true,
  docExpansion: 'list',
});
`;
}
