import type { Contract, Operation } from './contract/index.js';

export type RouteMatch =
  | { readonly kind: 'match'; readonly operation: Operation; readonly pathParams: Readonly<Record<string, string>> }
  | { readonly kind: 'no-path' }
  /** The path exists but not with this method; `allow` lists exactly the documented methods (RFC 9110 §15.5.6). */
  | { readonly kind: 'no-method'; readonly pathTemplate: string; readonly allow: readonly string[] };

interface Node {
  readonly literal: Map<string, Node>;
  param?: { readonly node: Node };
  /**
   * Segments that hold a parameter between literal text (`{id}.json`, `v{version}`; OpenAPI 3.0.3 §4.7.8 "Path
   * templating" allows a template expression anywhere in a segment): tried after the literals, longest text first.
   */
  affixed?: { readonly prefix: string; readonly suffix: string; readonly node: Node }[];
  /** `names`: the template's own parameter names, in order; two templates may name one position differently. */
  route?: { readonly template: string; readonly byMethod: ReadonlyMap<string, Operation>; readonly allow: readonly string[]; readonly names: readonly string[]; readonly namesOf?: ReadonlyMap<string, readonly string[]> };
}

export interface Router {
  /** `path` is the request's path without query, percent-encoded as received. */
  match(method: string, path: string): RouteMatch;
}

/**
 * Compiles the document's path templates into a segment tree, once. A
 * concrete segment wins over a template (`/pets/mine` before `/pets/{petId}`,
 * OpenAPI 3.0.3 §4.7.8), with no sorting per request. `basePath` (such as
 * `/api/v1`) is stripped first, for deployments under a prefix.
 */
export function createRouter(contract: Contract, basePath = ''): Router {
  const root: Node = { literal: new Map() };
  const prefix = basePath.replace(/\/+$/, '');

  for (const [template, methods] of contract.pathMethods) {
    let node = root;
    const names: string[] = [];
    for (const segment of splitPath(template)) {
      const param = /^\{([^}]+)\}$/.exec(segment);
      const affixed = param ? undefined : /^([^{}]*)\{([^{}]+)\}([^{}]*)$/.exec(segment);
      if (param) {
        names.push(param[1]!);
        node.param ??= { node: { literal: new Map() } };
        node = node.param.node;
      } else if (affixed) {
        const [, prefix = '', name = '', suffix = ''] = affixed;
        names.push(name);
        const list = (node.affixed ??= []);
        let entry = list.find((e) => e.prefix === prefix && e.suffix === suffix);
        if (!entry) {
          list.push((entry = { prefix, suffix, node: { literal: new Map() } }));
          list.sort((a, b) => b.prefix.length + b.suffix.length - (a.prefix.length + a.suffix.length));
        }
        node = entry.node;
      } else {
        let next = node.literal.get(segment);
        if (!next) node.literal.set(segment, (next = { literal: new Map() }));
        node = next;
      }
    }
    const byMethod = new Map<string, Operation>();
    for (const operation of contract.operations) {
      if (operation.pathTemplate === template) byMethod.set(operation.method.toUpperCase(), operation);
    }
    // Two templates of one shape (`/groups/{name}.json` and `/groups/{id}.json`, which §4.7.8.1 forbids but
    // documents hold): one route with every method of both, each method keeping its own template's names.
    const earlier = node.route;
    if (earlier) {
      for (const [method, operation] of earlier.byMethod) byMethod.set(method, operation);
      const namesOf = new Map(earlier.namesOf ?? [...earlier.byMethod.keys()].map((method) => [method, earlier.names] as const));
      for (const method of byMethod.keys()) if (!namesOf.has(method)) namesOf.set(method, names);
      node.route = { template: earlier.template, byMethod, allow: [...new Set([...earlier.allow, ...methods])], names: earlier.names, namesOf };
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
          node = literal;
        } else {
          const affixed = here.affixed?.find((e) => segment.length > e.prefix.length + e.suffix.length && segment.startsWith(e.prefix) && segment.endsWith(e.suffix));
          if (affixed) {
            values.push(segment.slice(affixed.prefix.length, segment.length - affixed.suffix.length));
            node = affixed.node;
          } else if (here.param && segment !== '') {
            values.push(segment);
            node = here.param.node;
          } else {
            return { kind: 'no-path' };
          }
        }
      }
      const route = node.route;
      if (!route) return { kind: 'no-path' };
      // HEAD is GET without a body (RFC 9110 §9.3.2).
      const operation = route.byMethod.get(method) ?? (method === 'HEAD' ? route.byMethod.get('GET') : undefined);
      if (!operation) return { kind: 'no-method', pathTemplate: route.template, allow: route.allow };
      const params: Record<string, string> = {};
      const names = route.namesOf?.get(operation.method.toUpperCase()) ?? route.names;
      for (let i = 0; i < values.length; i += 1) params[names[i]!] = values[i]!;
      return { kind: 'match', operation, pathParams: params };
    },
  };
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
