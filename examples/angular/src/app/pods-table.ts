import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { toObservable, toSignal } from '@angular/core/rxjs-interop';
import { RouterLink } from '@angular/router';
import { switchMap } from 'rxjs';
import { phaseCounts } from './phase-counts';
import { PodsService } from './pods.service';

/** Route `ns/:namespace`: the namespace's pods, live, with counts per phase. */
@Component({
  selector: 'app-pods-table',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [RouterLink],
  template: `
    <h2>Pods in <code>{{ namespace() }}</code></h2>
    <p class="phases" data-testid="phases">
      <span class="count">{{ pods().length }} pods</span>
      @for (p of phases(); track p.phase) {
        <span class="phase {{ p.phase }}" [attr.data-phase]="p.phase">{{ p.phase }}: {{ p.count }}</span>
      }
    </p>
    <table>
      <thead>
        <tr><th>Name</th><th>Phase</th><th>Labels</th><th>Node</th><th>Version</th></tr>
      </thead>
      <tbody>
        @for (pod of sorted(); track pod.metadata?.uid) {
          <tr [attr.data-pod]="pod.metadata?.name">
            <td><a [routerLink]="['pods', pod.metadata?.name]">{{ pod.metadata?.name }}</a></td>
            <td><span class="phase {{ pod.status?.phase }}">{{ pod.status?.phase }}</span></td>
            <td class="labels">{{ labels(pod.metadata?.labels) }}</td>
            <td>{{ pod.spec?.nodeName }}</td>
            <td>{{ pod.metadata?.resourceVersion }}</td>
          </tr>
        } @empty {
          <tr><td colspan="5">No pods.</td></tr>
        }
      </tbody>
    </table>
  `,
})
export class PodsTable {
  private readonly service = inject(PodsService);
  /** From the route (`withComponentInputBinding`). */
  readonly namespace = input.required<string>();

  /** Subscribed while this view is on screen; a new namespace switches the subscription. */
  readonly pods = toSignal(toObservable(this.namespace).pipe(switchMap((ns) => this.service.podsIn$(ns))), {
    initialValue: [],
  });
  readonly sorted = computed(() =>
    [...this.pods()].sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '')),
  );
  readonly phases = computed(() => phaseCounts(this.pods()));

  labels(labels: Readonly<Record<string, string>> | undefined): string {
    return Object.entries(labels ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join(', ');
  }
}
