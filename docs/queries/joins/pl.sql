-- PL: part ⋈ lineitem on partkey, p_retailprice in a range
select
    part.p_partkey,
    part.p_name,
    part.p_retailprice,
    lineitem.l_orderkey,
    lineitem.l_linenumber,
    lineitem.l_quantity,
    lineitem.l_extendedprice
from
    part
    join lineitem on part.p_partkey = lineitem.l_partkey
where
    part.p_retailprice between ${lo} and ${hi}
