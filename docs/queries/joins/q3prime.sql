-- Q3': customer ⋈ orders ⋈ lineitem (TPC-H Q3 without its aggregation), c_acctbal in a range
select
    customer.c_custkey,
    customer.c_mktsegment,
    orders.o_orderkey,
    orders.o_orderdate,
    orders.o_shippriority,
    lineitem.l_linenumber,
    lineitem.l_extendedprice,
    lineitem.l_discount
from
    customer
    join orders on customer.c_custkey = orders.o_custkey
    join lineitem on orders.o_orderkey = lineitem.l_orderkey
where
    customer.c_acctbal between ${lo} and ${hi}
