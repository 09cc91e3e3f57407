import type { Routes } from '@angular/router';
import { PodDetail } from './pod-detail';
import { PodsTable } from './pods-table';

export const routes: Routes = [
  { path: '', pathMatch: 'full', redirectTo: 'ns/default' },
  { path: 'ns/:namespace', component: PodsTable },
  { path: 'ns/:namespace/pods/:name', component: PodDetail },
  { path: '**', redirectTo: 'ns/default' },
];
