import { billingRoutes } from '@app/contracts';
import { call } from '@app/kit';

export interface ConversionApi {
  /** GET /api/new/target_2: records the payment conversion goal. */
  record: () => Promise<{ recorded: boolean }>;
}

export const conversionApi: ConversionApi = {
  record: () => call(billingRoutes.conversion),
};
