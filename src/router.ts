import type { Contract, Operation } from './contract/index.js';

export type RouteMatch =
  | { readonly kind: 'match'; readonly operation: Operation; readonly pathParams: Readonly<Record<string, string>> }
  | { readonly kind: 'no-path' }
  /** The path exists but not with this method; `allow` lists exactly the documented methods (RFC 9110 §15.5.6). */
  | { readonly kind: 'no-method'; readonly pathTemplate: string; readonly allow: readonly string[] };

/** Every node has every member from the start (newNode), so the walk reads one shape of object, not several. */
interface Node {
  readonly literal: Map<string, Node>;
  param: { readonly node: Node } | undefined;
  /**
   * Segments that hold a parameter between literal text (`{id}.json`, `v{version}`; OpenAPI 3.0.3 §4.7.8 "Path
   * templating" allows a template expression anywhere in a segment): tried after the literals, longest text first.
   */
  affixed: { readonly prefix: string; readonly suffix: string; readonly node: Node }[] | undefined;
  /** `names`: the template's own parameter names, in order; two templates may name one position differently. */
  route: { readonly template: string; readonly byMethod: ReadonlyMap<string, Operation>; readonly allow: readonly string[]; readonly names: readonly string[]; readonly namesOf?: ReadonlyMap<string, readonly string[]> } | undefined;
  /** A template beside the literals (`param` or `affixed`): a segment taken as a literal here had another way. */
  forks: boolean;
}

function newNode(): Node {
  return { literal: new Map(), param: undefined, affixed: undefined, route: undefined, forks: false };
}

type Route = NonNullable<Node['route']>;

export interface Router {
  /** `path` is the request's path without query, percent-encoded as received. */
  match(method: string, path: string): RouteMatch;
}

/**
 * Compiles the document's path templates into a segment tree, once. A concrete segment wins over a template
 * (`/pets/mine` before `/pets/{petId}`, OpenAPI 3.0.3 §4.7.8), with no sorting per request. `basePath` (such as
 * `/api/v1`) is stripped first, for deployments under a prefix.
 *
 * The precedence is an order of trial, not an exclusion: "concrete (non-templated) paths would be matched before
 * their templated counterparts" (§4.7.8), so a request the concrete path does not serve falls back to the template
 * that does. Box's `/files/{file_id}/metadata/global/boxSkillsCards` (GET only) beside
 * `/files/{file_id}/metadata/{scope}/{template_key}` (GET, POST, PUT, DELETE): `GET .../global/properties` is the
 * template's GET (the literal `global` leads nowhere for `properties`), and `POST .../global/boxSkillsCards` the
 * template's POST, as a server built from the document routes them: find-my-way (fastify) keeps one tree per method
 * and tries static, then parametric, children, and Prism keeps the operations whose path and method both match before
 * preferring a concrete path. A 405 is answered only where no matching path has the method, and its `Allow` lists
 * every method of every path that matches the URL (RFC 9110 §15.5.6: the methods the target resource supports).
 *
 * A path key's `#fragment` (Mistral's `/v1/conversations#stream`, Box's `.../schema#add`) is never sent (RFC 3986
 * §3.5): it names an overload of the same wire path, so every key is routed by the path before its `#`. Where two keys
 * share a wire path and a method, the key without a fragment answers, else the first in the document's order.
 */
export function createRouter(contract: Contract, basePath = ''): Router {
  const root = newNode();
  const prefix = basePath.replace(/\/+$/, '');

  // The keys without a fragment first, then the document's order (a stable sort): where two keys meet on one node,
  // the earlier one keeps a method both document (below).
  const templates = [...contract.pathMethods].sort(([a], [b]) => Number(a.includes('#')) - Number(b.includes('#')));
  for (const [key, methods] of templates) {
    const template = wirePath(key);
    let node = root;
    const names: string[] = [];
    for (const segment of splitPath(template)) {
      const param = /^\{([^}]+)\}$/.exec(segment);
      const affixed = param ? undefined : /^([^{}]*)\{([^{}]+)\}([^{}]*)$/.exec(segment);
      if (param) {
        names.push(param[1]!);
        node.param ??= { node: newNode() };
        node.forks = true;
        node = node.param.node;
      } else if (affixed) {
        const [, prefix = '', name = '', suffix = ''] = affixed;
        names.push(name);
        const list = (node.affixed ??= []);
        node.forks = true;
        let entry = list.find((e) => e.prefix === prefix && e.suffix === suffix);
        if (!entry) {
          list.push((entry = { prefix, suffix, node: newNode() }));
          list.sort((a, b) => b.prefix.length + b.suffix.length - (a.prefix.length + a.suffix.length));
        }
        node = entry.node;
      } else {
        let next = node.literal.get(segment);
        if (!next) node.literal.set(segment, (next = newNode()));
        node = next;
      }
    }
    const byMethod = new Map<string, Operation>();
    for (const operation of contract.operations) {
      if (operation.pathTemplate === key) byMethod.set(operation.method.toUpperCase(), operation);
    }
    // Two templates of one shape (`/groups/{name}.json` and `/groups/{id}.json`, which §4.7.8.1 forbids but
    // documents hold; `/v1/connectors/{connector_id_or_name}#idOrName` and `/v1/connectors/{connector_id}#id`): one
    // route with every method of both, each method keeping its own template's names, the earlier key's operation
    // where both have the method.
    const earlier = node.route;
    if (earlier) {
      for (const [method, operation] of earlier.byMethod) byMethod.set(method, operation);
      const allow = [...new Set([...earlier.allow, ...methods])];
      // Names by method only where they differ (a lookup per request otherwise spared): Box's `/files/{file_id}`
      // and its four `/files/{file_id}#…_shared_link` keys name the one position alike.
      if (!earlier.namesOf && names.length === earlier.names.length && names.every((name, i) => name === earlier.names[i])) {
        node.route = { template: earlier.template, byMethod, allow, names: earlier.names };
      } else {
        const namesOf = new Map(earlier.namesOf ?? [...earlier.byMethod.keys()].map((method) => [method, earlier.names] as const));
        for (const method of byMethod.keys()) if (!namesOf.has(method)) namesOf.set(method, names);
        node.route = { template: earlier.template, byMethod, allow, names: earlier.names, namesOf };
      }
    } else node.route = { template, byMethod, allow: methods, names };
  }

  return {
    match(method, rawPath) {
      let path = rawPath;
      if (prefix) {
        if (path !== prefix && !path.startsWith(`${prefix}/`)) return { kind: 'no-path' };
        path = path.slice(prefix.length) || '/';
      }
      // Values by position: `/a/{aId}` and `/a/{name}/b` share the node, and only the route reached names them.
      const values: string[] = [];
      // The usual request first: one walk down, the literal before a template at each segment. It is the first way
      // the backtracking walk (find) would try, so where it ends on a route serving the method, that is the answer.
      // `forked`: a segment had another way; only then can a later way serve the request, and find is asked.
      let forked = false;
      let node: Node | undefined = root;
      // Segment by segment with indexOf and slice, not split(): no array per request (issue 14).
      const start = path.charCodeAt(0) === 0x2f ? 1 : 0;
      for (let from = start; path !== '/' && from <= path.length; ) {
        const slash = path.indexOf('/', from);
        const end = slash === -1 ? path.length : slash;
        const rawSegment = path.slice(from, end);
        from = end + 1;
        const segment = decodeSegment(rawSegment);
        if (segment === undefined) return { kind: 'no-path' };
        const here: Node = node;
        const literal: Node | undefined = here.literal.get(segment);
        if (literal) {
          if (here.forks) forked = true;
          node = literal;
        } else {
          const affixed = here.affixed?.find((e) => segment.length > e.prefix.length + e.suffix.length && segment.startsWith(e.prefix) && segment.endsWith(e.suffix));
          if (affixed) {
            if (here.param || here.affixed!.length > 1) forked = true;
            values.push(segment.slice(affixed.prefix.length, segment.length - affixed.suffix.length));
            node = affixed.node;
          } else if (here.param && segment !== '') {
            values.push(segment);
            node = here.param.node;
          } else if (forked) {
            node = undefined;
            break;
          } else {
            return { kind: 'no-path' };
          }
        }
      }
      let route = node?.route;
      let operation = route && operationOf(route, method);
      if (!operation && forked) {
        // A concrete path that does not serve the request hands it to its templated counterpart (§4.7.8).
        values.length = 0;
        const reached: Route[] = [];
        route = find(root, path, path === '/' ? 2 : start, method, values, reached);
        if (!route) return refusal(reached);
        operation = operationOf(route, method)!;
      }
      if (!route) return { kind: 'no-path' };
      if (!operation) return { kind: 'no-method', pathTemplate: route.template, allow: route.allow };
      const params: Record<string, string> = {};
      const names = route.namesOf?.get(operation.method.toUpperCase()) ?? route.names;
      for (let i = 0; i < values.length; i += 1) params[names[i]!] = values[i]!;
      return { kind: 'match', operation, pathParams: params };
    },
  };
}

/**
 * No path that matches the URL serves the method: a 405 whose `Allow` is every method of every path matching it
 * (`reached`, the concrete one's first), else a 404.
 */
function refusal(reached: readonly Route[]): RouteMatch {
  const first = reached[0];
  if (!first) return { kind: 'no-path' };
  if (reached.length === 1) return { kind: 'no-method', pathTemplate: first.template, allow: first.allow };
  const allow = [...first.allow];
  for (let i = 1; i < reached.length; i += 1) for (const method of reached[i]!.allow) if (!allow.includes(method)) allow.push(method);
  return { kind: 'no-method', pathTemplate: first.template, allow };
}

/** The path a key is requested at: without its `#fragment`, which no client sends (RFC 3986 §3.5). */
export function wirePath(key: string): string {
  const hash = key.indexOf('#');
  return hash === -1 ? key : key.slice(0, hash);
}

/** HEAD is GET without a body (RFC 9110 §9.3.2). */
function operationOf(route: Route, method: string): Operation | undefined {
  return route.byMethod.get(method) ?? (method === 'HEAD' ? route.byMethod.get('GET') : undefined);
}

/**
 * The first route, in precedence order (at each segment: the literal, then the affixed templates longest text first,
 * then the bare parameter), that matches `path` from `from` on and serves `method`; `values` holds the parameters of
 * the way to it. Each route passed on the way (matching the path, not serving the method) is pushed to `reached`, in
 * the same order: where none serves it, `reached` holds every route matching the path.
 *
 * A depth-first walk that backtracks: each node of the tree is reached by one way only, so a request costs at most
 * one visit per node. Asked only where the one walk down in match() found no route serving the method and passed a
 * segment that had another way; no allocation but the values and routes it pushes.
 */
function find(node: Node, path: string, from: number, method: string, values: string[], reached: Route[]): Route | undefined {
  if (from > path.length) {
    const route = node.route;
    if (!route) return undefined;
    if (operationOf(route, method)) return route;
    reached.push(route);
    return undefined;
  }
  const slash = path.indexOf('/', from);
  const end = slash === -1 ? path.length : slash;
  const segment = decodeSegment(path.slice(from, end));
  if (segment === undefined) return undefined;
  const next = end + 1;
  const literal = node.literal.get(segment);
  if (literal) {
    const found = find(literal, path, next, method, values, reached);
    if (found) return found;
  }
  const mark = values.length;
  if (node.affixed) {
    for (const e of node.affixed) {
      if (segment.length <= e.prefix.length + e.suffix.length || !segment.startsWith(e.prefix) || !segment.endsWith(e.suffix)) continue;
      values.push(segment.slice(e.prefix.length, segment.length - e.suffix.length));
      const found = find(e.node, path, next, method, values, reached);
      if (found) return found;
      values.length = mark;
    }
  }
  if (node.param && segment !== '') {
    values.push(segment);
    const found = find(node.param.node, path, next, method, values, reached);
    if (found) return found;
    values.length = mark;
  }
  return undefined;
}

/** Runs per request: a slice, not a regular expression (issue 5). */
function splitPath(path: string): string[] {
  if (path === '/') return [];
  return (path.charCodeAt(0) === 0x2f ? path.slice(1) : path).split('/');
}

function decodeSegment(segment: string): string | undefined {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined; // malformed percent-encoding or invalid UTF-8
  }
}
