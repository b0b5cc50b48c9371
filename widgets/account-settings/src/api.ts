import { privacyEndpoints } from '@app/contracts/privacy';
import { routeCall } from '@app/kit';

/** The calls of the settings page (tests pass fakes with the same routes). */
export const settingsApi = {
  notices: routeCall(privacyEndpoints.noticeSettings),
  saveNotices: routeCall(privacyEndpoints.updateNoticeSettings),
  deleteAccount: routeCall(privacyEndpoints.deleteAccount),
};

export type SettingsApi = typeof settingsApi;
