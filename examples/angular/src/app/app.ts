import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { RouterLink, RouterLinkActive, RouterOutlet } from '@angular/router';
import { PodsService } from './pods.service';

/** The shell: the namespaces that have pods (live), and the routed view. */
@Component({
  selector: 'app-root',
  changeDetection: ChangeDetectionStrategy.OnPush,
  imports: [RouterOutlet, RouterLink, RouterLinkActive],
  template: `
    <header>
      <h1>rxkube pods</h1>
      <span class="status" data-testid="status">{{ synced() ? 'live' : 'loading…' }}</span>
    </header>
    <nav data-testid="namespaces">
      @for (ns of namespaces(); track ns) {
        <a [routerLink]="['/ns', ns]" routerLinkActive="active">{{ ns }}</a>
      }
    </nav>
    <main><router-outlet /></main>
  `,
})
export class App {
  private readonly service = inject(PodsService);
  readonly synced = toSignal(this.service.synced$, { initialValue: false });
  readonly namespaces = toSignal(this.service.namespaces$, { initialValue: [] });
}
