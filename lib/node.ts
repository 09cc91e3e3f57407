/**
 * rxkube as Node loads it (the package's `node` export condition): the library, after a check that
 * the installed @kubernetes/client-node can load on this Node. client-node 2 crashes the process on
 * Node < 22.19 as soon as it is loaded, with a message that names neither package; importing rxkube
 * before client-node turns that into one sentence saying what to install. Browsers get `index`
 * without the check (it reads files).
 * @packageDocumentation
 */
import { checkClientNode } from './transport/clientNodeCheck.js';

checkClientNode();

export * from './index.js';
