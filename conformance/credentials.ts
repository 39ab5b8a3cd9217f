/**
 * Which operations need credentials that the run does not send.
 *
 * OpenAPI's Security Requirement Objects (3.0.3 §4.7.30, 3.1.0 §4.8.30) are part of what makes a request valid:
 * a request to a secured operation without the credentials one of its requirements names is not a valid
 * request, and a correct server refuses it with 401 or 403 (RFC 9110 §15.5.2, §15.5.4) before it reads the
 * body, whatever the document lists. A run that has no credentials for an operation therefore cannot conclude
 * anything from such a refusal: not that a valid body was refused, not that an invalid one was refused for the
 * right reason, not that 401 is undocumented. Those cases are skipped with this module's reason, which says
 * what to pass (`--header`), instead of being blamed on the target.
 *
 * A requirement is met by the names of the headers the run sends with every request (`--header`; their values
 * are never read): `Authorization` for http, oauth2 and openIdConnect schemes, the scheme's own header name for
 * an apiKey in a header, `Cookie` for an apiKey in a cookie. An apiKey in the query and mutualTLS cannot be
 * supplied that way, so they are never met. An empty requirement (`{}`) makes security optional.
 */
import type { Contract, Operation } from '../src/contract/index.js';

interface SchemeObject {
  readonly type?: unknown;
  readonly in?: unknown;
  readonly name?: unknown;
}

type Requirement = Readonly<Record<string, unknown>>;

export class Credentials {
  private readonly sent: ReadonlySet<string>;
  private readonly schemes: Readonly<Record<string, SchemeObject>>;
  private readonly documentRequirements: readonly Requirement[] | undefined;
  private readonly lacking = new Map<string, string | undefined>();
  private unmatchedLacking: string | undefined | null = null;

  constructor(
    private readonly contract: Contract,
    /** Names of the headers sent with every request (`--header`). */
    headerNames: readonly string[],
  ) {
    this.sent = new Set(headerNames.map((name) => name.toLowerCase()));
    const document = contract.document as { security?: unknown; components?: { securitySchemes?: unknown } };
    this.schemes = isRecord(document.components?.securitySchemes) ? (document.components.securitySchemes as Record<string, SchemeObject>) : {};
    this.documentRequirements = requirementsOf(document.security);
  }

  /**
   * Undefined when the run can call the operation as the document asks; otherwise the operation's security
   * schemes, as a reason ends with them ("ApiKeyAuth or BasicAuth").
   */
  missingFor(operation: Operation): string | undefined {
    if (!this.lacking.has(operation.operationId)) this.lacking.set(operation.operationId, this.compute(operation));
    return this.lacking.get(operation.operationId);
  }

  /**
   * For a request no operation describes (an unknown path, a wrong method): undefined when the run has every
   * credential the document asks for; otherwise the schemes it lacks. A server that checks credentials before
   * it routes (a gateway, an authentication middleware) answers such a request 401 as correctly as 404 or 405.
   */
  missingForUnmatched(): string | undefined {
    if (this.unmatchedLacking === null) {
      const first = this.contract.operations.map((operation) => this.missingFor(operation)).find((missing) => missing !== undefined);
      this.unmatchedLacking = first;
    }
    return this.unmatchedLacking;
  }

  /** Those of `operations` (by default the document's) the run has no credentials for. */
  operationsWithout(operations: readonly Operation[] = this.contract.operations): Operation[] {
    return operations.filter((operation) => this.missingFor(operation) !== undefined);
  }

  private compute(operation: Operation): string | undefined {
    const item = (this.contract.document.paths as Record<string, unknown> | undefined)?.[operation.pathTemplate];
    const raw = isRecord(item) && isRecord(item[operation.method]) ? (item[operation.method] as { security?: unknown }).security : undefined;
    // The operation's own list replaces the document's, even when it is empty (§4.7.10 `security`).
    const requirements = requirementsOf(raw) ?? this.documentRequirements ?? [];
    if (requirements.length === 0 || requirements.some((requirement) => this.met(requirement))) return undefined;
    return requirements.map((requirement) => Object.keys(requirement).join(' and ')).join(' or ');
  }

  private met(requirement: Requirement): boolean {
    return Object.keys(requirement).every((name) => {
      const scheme = this.schemes[name];
      // A requirement naming no declared scheme is the document's error; the run cannot know what it asks, so it assumes nothing is missing.
      if (!isRecord(scheme)) return true;
      switch (scheme.type) {
        case 'http':
        case 'oauth2':
        case 'openIdConnect':
          return this.sent.has('authorization');
        case 'apiKey':
          if (scheme.in === 'header') return typeof scheme.name === 'string' && this.sent.has(scheme.name.toLowerCase());
          if (scheme.in === 'cookie') return this.sent.has('cookie');
          return false;
        default:
          return false;
      }
    });
  }
}

/** Whether an answer is a refusal for want of credentials: 401 or 403 (RFC 9110 §15.5.2, §15.5.4). */
export function isCredentialRefusal(status: number | undefined): boolean {
  return status === 401 || status === 403;
}

function requirementsOf(value: unknown): Requirement[] | undefined {
  return Array.isArray(value) ? value.filter(isRecord) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
