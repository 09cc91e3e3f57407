import { Environment } from '@marcbachmann/cel-js';
import { causeMessage } from '../errors.js';

// The variables a webhook's matchConditions see (no `params`, no `variables`), all dynamic, as
// kube compiles them at creation: a misspelt field passes, a syntax error or a non-bool result fails.
let env: Environment | undefined;
const environment = (): Environment => {
  if (!env) {
    env = new Environment();
    for (const name of ['object', 'oldObject', 'request']) env.registerVariable(name, 'dyn');
  }
  return env;
};

/**
 * Why a matchCondition's CEL expression would be refused at creation (`compilation failed: ...`,
 * or a result that is not a bool), or undefined when it compiles. Expressions that use
 * `authorizer` are only parsed (its methods are not declared here).
 *
 * @example
 * ```ts
 * compileMatchCondition('object.metadata.name == "a"'); // undefined
 * compileMatchCondition('object.metadata.name');        // 'must evaluate to bool but got dyn'... or undefined (dyn passes)
 * ```
 */
export function compileMatchCondition(expression: string): string | undefined {
  const e = environment();
  try {
    if (/\bauthorizer\b/.test(expression)) {
      e.parse(expression);
      return undefined;
    }
    const checked = e.check(expression);
    if (!checked.valid) return `compilation failed: ${firstLine(checked.error)}`;
    if (checked.type !== 'bool' && checked.type !== 'dyn') return `must evaluate to bool but got ${checked.type}`;
    return undefined;
  } catch (err) {
    return `compilation failed: ${firstLine(err)}`;
  }
}

const firstLine = (err: unknown): string => causeMessage(err).split('\n')[0];
