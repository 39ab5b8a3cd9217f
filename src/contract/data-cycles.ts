/**
 * Values a document gives (examples, defaults, `const`, enums) that contain themselves (issue 31, point 3).
 * YAML can write one (`example: &loop {parent: *loop}`), and the dereferenced document then holds an object
 * that is its own member: every deep copy, freeze or JSON text of it recursed until the stack broke (the mock
 * exited with a RangeError at start-up, the runner spun). A schema may contain itself (a tree); a value may not:
 * such a document is refused at load with SPEC_INVALID naming both places.
 *
 * One walk over the document without recursion, each object once; below a keyword that holds a value, a
 * depth-first search that knows which objects are on its current path (a value shared twice is not a cycle).
 */

/** The keywords whose content is a value the document gives, not a schema or another part of the document. */
const VALUE_KEYWORDS = new Set(['example', 'examples', 'default', 'const', 'enum']);

/**
 * Keywords whose members are named by the author (a property called `default`, a response called `example`):
 * their keys are names, never keywords.
 */
const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
  'definitions',
  'paths',
  'webhooks',
  'schemas',
  'responses',
  'parameters',
  'requestBodies',
  'headers',
  'securitySchemes',
  'links',
  'callbacks',
  'pathItems',
  'content',
  'encoding',
  'variables',
  'mapping',
]);

export interface SelfContainingValue {
  /** Where the value is (`#/components/schemas/Thing/example`). */
  readonly value: string;
  /** Where it holds itself (`#/components/schemas/Thing/example/parent`). */
  readonly at: string;
}

const escape = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The first value of the document that contains itself, or undefined when none does. */
export function findSelfContainingValue(document: unknown): SelfContainingValue | undefined {
  if (typeof document !== 'object' || document === null) return undefined;
  // Pointers are not built on the way (most of the cost of a walk over a 12 MB document): only once a cycle is found.
  const walked = new Set<object>();
  const acyclic = new Set<object>();
  const nodes: object[] = [document];
  const names: boolean[] = [false];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const named = names.pop()!;
    if (walked.has(node)) continue;
    walked.add(node);
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      const child: unknown = Reflect.get(node, key);
      if (typeof child !== 'object' || child === null) continue;
      if (!named && VALUE_KEYWORDS.has(key)) {
        if (hasCycle(child, acyclic)) return locate(document, child);
        continue;
      }
      nodes.push(child);
      names.push(!named && NAME_MAPS.has(key));
    }
  }
  return undefined;
}

/** Whether `value` reaches an object on its own path; objects found free of cycles are kept in `acyclic`. */
function hasCycle(value: object, acyclic: Set<object>): boolean {
  return cycleFrom(value, '', acyclic) !== undefined;
}

/** Where, below `pointer`, `value` reaches an object on its own path, or undefined. */
function cycleFrom(value: object, pointer: string, acyclic: Set<object>): string | undefined {
  const onPath = new Set<object>();
  // An entry is visited twice: on the way in (push its children), and on the way out (leave the path).
  const stack: [node: object, pointer: string, leaving: boolean][] = [[value, pointer, false]];
  while (stack.length > 0) {
    const [node, at, leaving] = stack.pop()!;
    if (leaving) {
      onPath.delete(node);
      acyclic.add(node);
      continue;
    }
    if (acyclic.has(node)) continue;
    if (onPath.has(node)) return at;
    onPath.add(node);
    stack.push([node, at, true]);
    for (const [key, child] of Object.entries(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, `${at}/${escape(key)}`, false]);
    }
  }
  return undefined;
}

/** The pointers of a value known to contain itself: where it is (breadth first, so the shortest way), and where it loops. */
function locate(document: object, value: object): SelfContainingValue {
  const seen = new Set<object>([document]);
  const queue: [node: object, pointer: string][] = [[document, '#']];
  for (let head = 0; head < queue.length; head += 1) {
    const [node, pointer] = queue[head]!;
    for (const [key, child] of Object.entries(node)) {
      if (typeof child !== 'object' || child === null) continue;
      const at = `${pointer}/${escape(key)}`;
      if (child === value) return { value: at, at: cycleFrom(value, at, new Set()) ?? at };
      if (!seen.has(child)) seen.add(child), queue.push([child, at]);
    }
  }
  return { value: '#', at: '#' };
}
