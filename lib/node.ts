/**
 * rxkube as Node loads it (the package's `node` export condition): the library, after a check that
 * the installed @kubernetes/client-node can load on this Node, with the client-node transport as the
 * transport of a `KubeConfig`. client-node 2 crashes the process on Node < 22.19 as soon as it is
 * loaded, with a message that names neither package; importing rxkube before client-node turns that
 * into one sentence saying what to install. Browsers get `index` without the check (it reads files)
 * and without the Node transport (node:http and credentials they could never use).
 * @packageDocumentation
 */
import { checkClientNode } from './transport/clientNodeCheck.js';
import { clientNodeTransport } from './transport/clientNode.js';
import { provideKubeConfigTransport } from './transport/kubeConfigTransport.js';

checkClientNode();
provideKubeConfigTransport((kubeConfig) => clientNodeTransport(kubeConfig));

export * from './index.js';
