-- Replaced by order_opened (drizzle/0018): the "new" marker is per person now.
DROP TABLE `order_seen`;