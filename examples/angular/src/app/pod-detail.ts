import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { toObservable, toSignal } from '@angular/core/rxjs-interop';
import { RouterLink } from '@angular/router';
import { switchMap } from 'rxjs';
import { PodsService } from './pods.service';

/**
 * Route `ns/:namespace/pods/:name`: one pod, live. `toSignal` subscribes when the route is entered
 * and unsubscribes when it is left (the component's DestroyRef).
 */
@Component({
  selector: 'app-pod-detail',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [RouterLink],
  template: `
    <p><a [routerLink]="['/ns', namespace()]">&larr; {{ namespace() }}</a></p>
    @if (pod(); as pod) {
      <h2 data-testid="detail-name">{{ pod.metadata?.name }}</h2>
      <dl>
        <dt>Namespace</dt><dd>{{ pod.metadata?.namespace }}</dd>
        <dt>Phase</dt><dd data-testid="detail-phase"><span class="phase {{ pod.status?.phase }}">{{ pod.status?.phase }}</span></dd>
        <dt>Labels</dt>
        <dd data-testid="detail-labels">
          @for (label of labels(); track label) { <code>{{ label }}</code> }
        </dd>
        <dt>Node</dt><dd>{{ pod.spec?.nodeName }}</dd>
        <dt>Containers</dt>
        <dd>
          @for (c of pod.spec?.containers ?? []; track c.name) { <code>{{ c.name }}: {{ c.image }}</code> }
        </dd>
        <dt>Created</dt><dd>{{ pod.metadata?.creationTimestamp }}</dd>
        <dt>Resource version</dt><dd data-testid="detail-rv">{{ pod.metadata?.resourceVersion }}</dd>
      </dl>
    } @else {
      <h2 data-testid="detail-name">{{ name() }}</h2>
      <p data-testid="detail-gone">No such pod (deleted, or not created yet).</p>
    }
  `,
})
export class PodDetail {
  private readonly service = inject(PodsService);
  readonly namespace = input.required<string>();
  readonly name = input.required<string>();

  private readonly key = computed(() => ({ namespace: this.namespace(), name: this.name() }));
  readonly pod = toSignal(toObservable(this.key).pipe(switchMap((k) => this.service.pod$(k.namespace, k.name))));
  readonly labels = computed(() => Object.entries(this.pod()?.metadata?.labels ?? {}).map(([k, v]) => `${k}=${v}`));
}
