/** The calls of the activity and settings tabs: 11 «История генерации», 12 «Чат», 13 «Аналитика», 16 «Настройки». */
export const activityApi = {};
