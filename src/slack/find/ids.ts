/** The ids of /waybill find: the callback and action ids Slack sends back to route a submission or a click. */
export const ids = {
  findShow: 'find_show',
  findMore: 'find_more',
  findHome: 'find_home',
} as const;
