/**
 * `petstore-kit/behaviour`: the types of a behaviour module (`petstore-kit mock --behaviour rules.mjs`), and
 * `defineBehaviour` to type its default export (docs/rules.md).
 */
export { defineBehaviour, type Behaviour, type HookAnswer, type HookRequest, type HookResult, type Hooks, type HookStore, type LoadContext, type LoadPlace, type LoadSource } from './hooks.js';
