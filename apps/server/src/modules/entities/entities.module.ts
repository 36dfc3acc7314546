import { bindRoutes } from '../../lib/bind-routes.ts';
import { entitiesRoutes } from './entities.routes.ts';
import { EntitiesService, type EntitiesDeps } from './entities.service.ts';
import { EntityExports, type XlsxWriter } from './entity-export.ts';
import { ManualActionsService, type ManualActionsDeps } from './manual-actions.service.ts';

/**
 * The explorer (issue 28): the read model of the workspace's campaigns, ad sets and ads (`service`, which the AI
 * assistant and the agent tools call too), manual actions through the rules' ledger (`actions`, taking an actor and
 * a mode), and the export.
 */
export function createEntitiesModule(
  deps: EntitiesDeps & Pick<ManualActionsDeps, 'handWrites' | 'people'> & { xlsx: XlsxWriter },
) {
  const service = new EntitiesService(deps);
  const actions = new ManualActionsService(deps);
  const exports = new EntityExports(service, deps.xlsx);
  return { service, actions, routes: bindRoutes(entitiesRoutes, { entities: service, actions, exports }) };
}
