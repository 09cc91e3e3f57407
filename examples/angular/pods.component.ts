import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { PodsService } from './pods.service.js';

/** Shows the service's signals; change detection runs when they change. */
@Component({
  selector: 'app-pods',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    @if (pods.synced()) {
      <p>{{ pods.runningCount() }} running</p>
      <ul>
        @for (name of pods.webPodNames(); track name) {
          <li>{{ name }}</li>
        }
      </ul>
    } @else {
      <p>loading…</p>
    }
  `,
})
export class PodsComponent {
  readonly pods = inject(PodsService);
}
