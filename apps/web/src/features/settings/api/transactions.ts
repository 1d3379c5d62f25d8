import type { Transactions } from '@dataplatform/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';

export interface TransactionListParams {
  skip: number;
  limit: number;
}

export const transactionKeys = {
  all: ['transactions'] as const,
  list: (params: TransactionListParams) => [...transactionKeys.all, 'list', params] as const,
};

/** `GET /subscriptions/transactions`: the caller's charges, newest first. */
export function fetchTransactions(params: TransactionListParams): Promise<Transactions> {
  return apiRequest<Transactions>({ path: '/subscriptions/transactions', query: { ...params } });
}

export function transactionsQueryOptions(params: TransactionListParams) {
  return queryOptions({
    queryKey: transactionKeys.list(params),
    queryFn: () => fetchTransactions(params),
    placeholderData: (previous) => previous,
    // The table shows "Error loading transaction history. Please try again later." itself.
    meta: { errorToast: false },
  });
}
