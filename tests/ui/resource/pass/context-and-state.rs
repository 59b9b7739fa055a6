use mcp_runtime::prelude::*;

struct Shop {
    name: String,
}

type Request = Context;

/// The shop's name.
#[mcp_resource(uri = "gifts://shop")]
fn shop(shop: State<Shop>, ctx: Context) -> String {
    format!("{} ({:?})", shop.name, ctx.request_id())
}

/// One category of the shop, later, taking the context through an alias.
#[mcp_resource(uri = "gifts://shop/{category}")]
async fn shop_category(request: Request, category: String, shop: State<Shop>) -> String {
    format!("{}: {category} ({:?})", shop.name, request.revision())
}

fn main() {
    mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .resource::<shop>()
        .resource::<shop_category>()
        .state(Shop {
            name: "Gifts & Co".to_owned(),
        })
        .build()
        .unwrap();
}
