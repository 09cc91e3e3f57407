import { controllerRbac } from 'rxkube/crd';
import { backupController } from './backupController.js';

/**
 * The backup controller's RBAC, from what its code declares: `npx rxkube-crd src/rbac.ts` writes
 * its ServiceAccount, ClusterRole and binding (the controller is built, never started).
 */
export const backupRbac = controllerRbac({
  name: 'backup-controller',
  serviceAccount: { namespace: 'backup-system', name: 'backup-controller' },
  build: (kubeConfig) => backupController(kubeConfig, { deleteAll: async () => {} }),
});
