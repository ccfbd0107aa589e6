/** How a listing is ordered. `createdAt` and `updatedAt` list oldest first; ties go by name. */
export type ListOrder = 'name' | 'createdAt' | 'updatedAt';
export const LIST_ORDERS: readonly ListOrder[] = ['name', 'createdAt', 'updatedAt'];
