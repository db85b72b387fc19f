-- The status page's token moves into its order's row: one insert and one random index page per
-- order fewer (decision 012). Orders placed before 0016 have none and keep none.
ALTER TABLE `orders` ADD `status_token` text;--> statement-breakpoint
UPDATE `orders` SET `status_token` = (SELECT `token` FROM `order_links` WHERE `order_links`.`order_id` = `orders`.`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `orders_status_token_uq` ON `orders` (`status_token`);--> statement-breakpoint
DROP TABLE `order_links`;
