/**
 * rxkube as Node loads it (the package's `node` export condition): the library, after a check that
 * the installed @kubernetes/client-node can load on this Node, with the client-node transport as the
 * transport of a `KubeConfig`. client-node 2 crashes the process on Node < 22.19 as soon as it is
 * loaded, with a message that names neither package; importing rxkube before client-node turns that
 * into one sentence saying what to install. It also installs the async context that records a
 * reconcile's writes for it (`AsyncLocalStorage`). Browsers get `index` without the check (it reads
 * files), without the Node transport (node:http and credentials they could never use) and without
 * AsyncLocalStorage.
 * @packageDocumentation
 */
import { asyncLocalWriteScope } from './node/asyncLocalWriteScope.js';
import { checkClientNode } from './transport/clientNodeCheck.js';
import { clientNodeTransport } from './transport/clientNode.js';
import { provideKubeConfigTransport } from './transport/kubeConfigTransport.js';
import { setWriteScope } from './write/writeScope.js';

checkClientNode();
provideKubeConfigTransport((kubeConfig) => clientNodeTransport(kubeConfig));
// A reconcile's writes are recorded for it through its async context (read-your-own-writes without
// ctx.wrote): Node has AsyncLocalStorage; a browser entry has no such context.
setWriteScope(asyncLocalWriteScope());

export * from './index.js';
