import { operationsOf, runScenario, type Scenario } from '../scenarios/dsl.js';
import { COLLECTIONS } from '../scenarios/collections.js';
import { WORKFLOWS } from '../scenarios/workflows.js';
import type { CheckDefinition } from './types.js';

/** One check per scenario of the contract's state rules; skipped when the document lacks an operation the scenario needs. */
function workflowCheck(scenario: Scenario): CheckDefinition {
  return {
    id: scenario.id,
    family: 'workflow',
    description: scenario.description,
    explain: {
      why: `A state rule of the contract (contract.md, "State rules"; the operation descriptions say it in words): ${scenario.description}. A server that answers each call well but breaks the rule corrupts the data clients see.`,
      conformant: scenario.steps.map((step, i) => `${i + 1}. ${step.operationId} (${step.note}) answers ${step.expect.status === 'success' ? '2xx' : step.expect.status}`).join('; '),
    },
    writes: true,
    ...(scenario.exclusive ? { exclusive: true } : {}),
    async run(ctx) {
      const subject = ctx.contract.operationsById.has(scenario.subject) ? scenario.subject : undefined;
      const c = ctx.newCase(scenario.id, scenario.description, subject);
      const missing = operationsOf(scenario).filter((id) => !ctx.contract.operationsById.has(id));
      if (missing.length > 0) return c.skip(`the document lacks ${missing.join(', ')}, which this state rule needs`);
      if (!ctx.isSelected(scenario.subject)) return c.skip(`${scenario.subject} is not selected by --only/--skip`);
      await runScenario(c, scenario);
    },
  };
}

export const workflowChecks: readonly CheckDefinition[] = [...WORKFLOWS, ...COLLECTIONS].map(workflowCheck);
